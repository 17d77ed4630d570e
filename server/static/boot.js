// Starts the page's script with the options the page carries as data (#page): the pages
// hold no inline script, so their Content-Security-Policy can forbid every one.
"use strict";

(() => {
  const options = Makhos.readJson("page");
  if (options) Makhos[options.start](options);
})();
