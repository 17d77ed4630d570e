// The standings page: rendered by the server; when a board of the hall changes, the page
// fetches itself again and swaps its tables in (one rendering, in the template).
"use strict";

(() => {
  let pending = null;

  async function refresh() {
    pending = null;
    const response = await fetch(location.href, {credentials: "same-origin"});
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const section = fresh.getElementById("standings");
    if (section) document.getElementById("standings").replaceWith(section);
  }

  Makhos.connect("/api/hall/events", (message) => {
    if (message.reset) location.reload();
    else if (message.state && !pending) pending = setTimeout(refresh, 500); // one fetch per burst
  });
})();
