// The hall: one live mini-board per board, kept current by /api/hall/events.
"use strict";

(() => {
  const T = Makhos.readJson("strings");
  const hall = document.getElementById("hall");

  // A board's card, or null after asking for a reload: a board new to the hall, or one
  // whose match moved to another round, belongs in a group the page does not have yet.
  function card(board) {
    const c = hall.querySelector(`.card[data-board="${CSS.escape(board.board)}"]`);
    if (c && c.closest(".round-group").dataset.round === board.match.round) return c;
    location.reload();
    return null;
  }

  function update(board) {
    const c = card(board);
    if (!c) return;
    let svg = c.querySelector("svg");
    if (!svg) {
      svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", "0 0 800 800");
      svg.setAttribute("class", "board mini");
      c.querySelector(".card-board").appendChild(svg);
    }
    Makhos.drawBoard(svg, {fen: board.fen, last: board.last_move});
    c.querySelector(".title").textContent = Makhos.boardTitle(board, T);
    const match = board.match;
    for (const side of ["dark", "light"]) {
      const name = board.players[side];
      c.querySelector(`.p-${side}`).textContent = name || T[side];
      const who = name === match.first ? "first" : "second";
      c.querySelector(`.s-${side}`).textContent = match.first && name ? match.score[who] : "";
    }
    c.querySelector(".card-meta").textContent = `${T.game} ${board.game} · ${board.plies} ${T.plies}`;
    const result = c.querySelector(".card-result");
    result.textContent = board.result ? T[board.result.outcome] || board.result.outcome : "";
    c.classList.toggle("finished", !!board.result);
    c.querySelector(".alert-dot").hidden = !board.alert;
    c.classList.toggle("alerting", !!board.alert);
  }

  for (const board of Makhos.readJson("initial").boards) update(board);
  Makhos.connect("/api/hall/events", (message) => {
    if (message.reset) location.reload(); // another log: the boards themselves may differ
    else if (message.state) update(message.state);
  });
})();
