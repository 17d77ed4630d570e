// The commentators' analysis of the position on the page: the evaluation bar beside the
// board, the best move as an arrow on it, the score and the line as text. Loaded only by
// the public board page and the overlay of an event with analysis on. The server analyses
// only positions the public has been shown (behind the broadcast delay): the shown
// position's analysis comes on the stream ("analysis" events), and a position walked back
// to (#ply=N) is asked for at `url?ply=N` and asked again while it is being analysed.
"use strict";

Makhos.analysis = function (url, T) {
  const POLL_MS = 1000;
  const bar = document.getElementById("eval-bar");
  const box = document.getElementById("analysis");
  const known = new Map(); // "game:ply:fen" -> a searched analysis (ready or unavailable)
  let shown = null; // {game, ply, fen, live, flipped, svg}: the position on the page
  let timer = null;

  const keyOf = (p) => `${p.game}:${p.ply}:${p.fen}`;

  // Dark's share of the bar: a forced end fills it; otherwise a logistic curve of the
  // score (one man ahead: two thirds; three men: nine tenths).
  function darkShare(score) {
    if (score.winner) return score.winner === "dark" ? 1 : 0;
    return 1 / (1 + Math.exp(-score.dark / 150));
  }

  function sideText(template, side, plies) {
    return template.replace("{side}", T[side]).replace("{plies}", plies);
  }

  function scoreText(score) {
    if (score.winner) {
      return score.plies === 0 ? sideText(T.has_won, score.winner) : sideText(T.wins_in, score.winner, score.plies);
    }
    const men = (score.dark / 100).toFixed(2);
    const signed = score.dark > 0 ? `+${men}` : score.dark < 0 ? men.replace("-", "−") : "0.00";
    return score.exact && score.dark === 0 ? `${signed} · ${T.drawn_with_best_play}` : signed;
  }

  function barLabel(score) {
    if (score.winner) return score.plies === 0 ? "✓" : `#${score.plies}`;
    const men = Math.abs(score.dark) / 100;
    return men >= 9.95 ? String(Math.round(men)) : men.toFixed(1);
  }

  function renderPending() {
    bar.classList.add("pending");
    box.classList.add("pending");
    box.querySelector(".analysis-score").textContent = T.analysing;
    box.querySelector(".analysis-best").textContent = "";
    box.querySelector(".analysis-depth").textContent = "";
    box.querySelector(".analysis-line").textContent = "";
    bar.querySelector(".eval-label").textContent = "";
  }

  function render(a) {
    bar.classList.remove("pending");
    box.classList.remove("pending");
    if (a.status !== "ready") {
      renderPending();
      box.querySelector(".analysis-score").textContent = T.analysis_unavailable;
      return;
    }
    const share = darkShare(a.score);
    bar.querySelector(".eval-fill").style.height = `${(share * 100).toFixed(1)}%`;
    bar.classList.toggle("flipped", shown.flipped); // dark's share grows from dark's side
    bar.dataset.lead = share > 0.5 ? "dark" : share < 0.5 ? "light" : "";
    bar.querySelector(".eval-label").textContent = barLabel(a.score);
    bar.title = `${scoreText(a.score)} (${T.score_side})`;
    box.querySelector(".analysis-score").textContent = scoreText(a.score);
    box.querySelector(".analysis-score").title = T.score_side;
    box.querySelector(".analysis-best").textContent = a.best ? `${T.best_move} ${a.best.move}` : "";
    box.querySelector(".analysis-depth").textContent = a.depth ? `${T.depth} ${a.depth}` : "";
    const line = box.querySelector(".analysis-line");
    line.textContent = "";
    a.line.split(" ").forEach((token, i) => { // a narrow column wraps between moves, never inside one
      if (i) line.appendChild(document.createTextNode(" "));
      line.appendChild(Makhos.el("span", null, token));
    });
    if (a.best) Makhos.drawArrow(shown.svg, a.best.path, shown.flipped);
  }

  // A position walked back to: ask for it, and again while the server is analysing it.
  function ask(position) {
    clearTimeout(timer);
    fetch(`${url}?ply=${position.ply}`, {credentials: "same-origin"})
      .then((response) => (response.ok ? response.json() : null))
      .then((a) => {
        if (!a || a.game !== position.game || a.fen !== position.fen) return; // not this game's any more
        if (a.status === "analysing") {
          if (shown && keyOf(shown) === keyOf(position)) timer = setTimeout(() => ask(position), POLL_MS);
          return;
        }
        receive(a);
      })
      .catch(() => { timer = setTimeout(() => ask(position), POLL_MS); });
  }

  // What the stream (or a request) says: kept once searched, drawn if it is the position shown.
  function receive(a) {
    if (a.status !== "analysing") known.set(keyOf(a), a);
    if (shown && keyOf(shown) === keyOf(a)) {
      if (a.status === "analysing") renderPending();
      else render(a);
    }
  }

  // The viewer drew a position (the board was just redrawn, so the arrow goes again too).
  function show(position) {
    shown = position;
    clearTimeout(timer);
    const a = known.get(keyOf(position));
    if (a) {
      render(a);
    } else {
      renderPending();
      if (!position.live) ask(position);
    }
  }

  const initial = Makhos.readJson("analysis-initial");
  if (initial) receive(initial);
  return {show, receive};
};
