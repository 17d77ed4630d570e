// The live board: SVG board, players, per-move clock, alerts, result and the move list
// with keyboard navigation. Used by the board page, the embed, the overlay and the referee.
// options (from the page's #page data): stream, keyboard (false: no arrow keys), history
// (true: each step is an entry of the browser's history), size (the board's width, px).
"use strict";

Makhos.viewer = function (options) {
  const T = Makhos.readJson("strings");
  const $ = (id) => document.getElementById(id);
  const store = window.localStorage;
  // ?flip=1 / ?numbers=1 win over the remembered choice: an OBS source has no buttons.
  const query = new URLSearchParams(location.search);
  const setting = (name) => (query.has(name) ? query.get(name) === "1" : store.getItem(`makhos.${name}`) === "1");
  const view = {
    state: Makhos.readJson("initial"),
    ply: null, // null: follow the game live; else the ply shown (0 = the start)
    archived: null, // an earlier game of the match, opened by a #game=N&ply=M link
    missing: null, // the game a link named that this board has not played
    flipped: setting("flip"),
    numbers: setting("numbers"),
    connected: true,
    clockOffset: 0,
  };
  const hooks = {alertButtons: options.alertButtons || null, onState: options.onState || null};
  // The commentators' analysis (analysis.js), on public pages of an event that has it.
  const analysis = options.analysis ? Makhos.analysis(options.analysis, T) : null;
  if (options.size) document.documentElement.style.setProperty("--board-size", `${options.size}px`);

  const shownGame = () => view.archived || view.state.game;
  const moves = () => shownGame().moves;
  const shownPly = () => (view.ply === null ? moves().length : view.ply);

  // The move shown is in the address: #game=2&ply=14 (or ?game=2&ply=14 in a link) opens
  // that position of that game of the match and stays there as moves arrive; #ply=14 alone
  // names the game being played; no ply follows the game live.
  function whole(raw, least) {
    const value = raw === null || raw === undefined ? NaN : Number(raw);
    return Number.isInteger(value) && value >= least ? value : null;
  }

  function inAddress() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const named = hash.has("ply") || hash.has("game");
    return {game: whole(named ? hash.get("game") : query.get("game"), 1),
            ply: whole(named ? hash.get("ply") : query.get("ply"), 0)};
  }

  function address(ply) {
    const search = new URLSearchParams(location.search);
    search.delete("ply");
    search.delete("game");
    const rest = search.toString();
    return location.pathname + (rest ? `?${rest}` : "") +
      (ply === null ? "" : `#game=${shownGame().number}&ply=${ply}`);
  }

  function fenAt(ply) {
    return ply === 0 ? shownGame().start_fen : moves()[ply - 1].fen;
  }

  function renderBoard() {
    const ply = shownPly();
    const entry = ply > 0 ? moves()[ply - 1] : null;
    Makhos.drawBoard($("board"), {
      fen: fenAt(ply),
      last: entry ? {path: entry.path, captured: entry.captured} : null,
      flipped: view.flipped,
      numbers: view.numbers,
    });
    if (analysis && !view.archived) {
      analysis.show({game: view.state.game.number, ply, fen: fenAt(ply), live: view.ply === null,
        flipped: view.flipped, svg: $("board")});
    }
  }

  function renderPlayers() {
    const game = shownGame(), match = view.state.match;
    const seats = {bottom: view.flipped ? "light" : "dark", top: view.flipped ? "dark" : "light"};
    for (const bar of document.querySelectorAll(".player-bar")) {
      const side = seats[bar.dataset.seat];
      const name = game.players[side] || T[side];
      bar.querySelector(".piece-chip").className = `piece-chip ${side}`;
      bar.querySelector(".name").textContent = name;
      const score = bar.querySelector(".score");
      if (match.first && game.players[side]) {
        const who = game.players[side] === match.first ? "first" : "second";
        score.textContent = match.score[who];
      } else {
        score.textContent = "";
      }
      bar.classList.toggle("to-move", !game.result && game.turn === side && view.ply === null);
    }
    const line = $("game-line");
    if (line) {
      // The shown game's own match: a new match's first game is its game 1, and an earlier
      // game keeps its round when the next round has begun.
      const place = game.in_match;
      let text = `${T.game} ${place.named ? place.number : game.number}`;
      if (place.named) text += ` ${T.of} ${place.games}`;
      if (place.round) text += ` · ${T.round} ${place.round}`;
      line.textContent = text;
    }
  }

  // The columns are the sides in the order they move: the first mover's moves on the left.
  function movesHead() {
    const first = shownGame().rules.first_mover;
    const head = Makhos.el("li", "move-head");
    head.appendChild(Makhos.el("span", "move-no", ""));
    for (const side of [first, first === "dark" ? "light" : "dark"]) {
      const cell = Makhos.el("span", `move-side ${side}`);
      cell.appendChild(Makhos.el("span", `piece-chip ${side}`));
      cell.appendChild(document.createTextNode(T[side]));
      head.appendChild(cell);
    }
    return head;
  }

  function renderMoves() {
    const list = $("moves");
    list.textContent = "";
    const all = moves();
    const current = shownPly();
    list.appendChild(movesHead());
    for (let i = 0; i < all.length; i += 2) {
      const row = Makhos.el("li", "move-row");
      row.appendChild(Makhos.el("span", "move-no", `${i / 2 + 1}.`));
      for (const entry of all.slice(i, i + 2)) {
        const b = Makhos.el("button", "mv");
        b.appendChild(Makhos.el("span", "mv-text", entry.move || "—"));
        if (entry.spent !== null && entry.spent !== undefined) {
          const spent = Makhos.el("span", "mv-time", Makhos.clockText(entry.spent));
          spent.title = T.time_spent;
          b.appendChild(spent);
        }
        b.type = "button";
        b.dataset.ply = entry.ply;
        if (entry.irregular) {
          b.classList.add("irregular");
          b.title = `${T.irregular}: ${entry.irregular}`;
        } else if (entry.unconfirmed) { // the tracker's likeliest order, for the referee to check
          b.classList.add("unconfirmed");
          b.appendChild(Makhos.el("span", "mv-mark", "?"));
          b.title = T.unconfirmed;
        }
        if (entry.ply === current) b.classList.add("active");
        b.addEventListener("click", () => go(entry.ply));
        row.appendChild(b);
      }
      list.appendChild(row);
    }
    const active = list.querySelector(".active");
    if (active) list.scrollTop = active.offsetTop - list.clientHeight / 2;
    else if (current === 0) list.scrollTop = 0;
  }

  function renderResult() {
    const box = $("result");
    if (!box) return;
    const result = shownGame().result;
    box.hidden = !result;
    box.textContent = "";
    if (result) {
      box.appendChild(Makhos.el("strong", null, T[result.outcome] || result.outcome));
      box.appendChild(Makhos.el("span", "reason", T[`reason:${result.reason}`] || result.reason));
    }
  }

  function renderAlerts() {
    const box = $("alerts");
    if (!box) return;
    box.textContent = "";
    const alerts = view.state.alerts;
    for (const alert of alerts) {
      const item = Makhos.el("div", `alert ${alert.kind}${alert.acknowledged ? " acknowledged" : ""}`);
      item.dataset.seq = alert.seq;
      item.appendChild(Makhos.el("strong", null, T[alert.kind] || alert.kind));
      item.appendChild(Makhos.el("span", "reason", alert.reason + (alert.side ? ` (${T[alert.side]})` : "")));
      if (hooks.alertButtons) item.appendChild(hooks.alertButtons(alert));
      box.appendChild(item);
    }
    if (view.state.crowning_pending) {
      box.appendChild(Makhos.el("div", "alert notice", `${T.crowning} ${view.state.crowning_pending}`));
    }
    if (view.state.game.awaits_board) {
      const note = Makhos.el("div", "alert notice awaits-board");
      note.appendChild(Makhos.el("strong", null, T.awaits_board));
      note.appendChild(Makhos.el("span", "reason", T.awaits_board_note));
      box.appendChild(note);
    }
    if (view.state.camera === "ended" && !view.state.game.result) {
      const note = Makhos.el("div", "alert notice camera-ended");
      note.appendChild(Makhos.el("strong", null, T.camera_ended));
      note.appendChild(Makhos.el("span", "reason", T.camera_ended_note));
      box.appendChild(note);
    }
  }

  // One link per game of the match, with its result: the PDN of each game.
  function renderMatchGames() {
    const box = $("match-games");
    if (!box) return;
    box.textContent = "";
    const results = view.state.match.results;
    if (results.length < 2 && !view.state.match.first) return;
    // One way of writing a score, everywhere: the match's first player's points first, as
    // the standings write a match ("2 – 0") and the player bars add up.
    for (const r of results) {
      const a = Makhos.el("a", r.game === shownGame().number ? "current" : "",
        `${T.game} ${r.game}: ${r.score ? `${r.score.first} – ${r.score.second}` : "*"}`);
      a.href = `/api/board/${encodeURIComponent(view.state.board)}/game/${r.game}/pdn`;
      const match = view.state.match;
      a.title = match.first ? `${match.first} – ${match.second} (${T.dark}: ${r.players.dark || "—"})`
        : `${r.players.dark || T.dark} – ${r.players.light || T.light}`;
      box.appendChild(a);
    }
  }

  // LIVE only while the game is played and the page is connected; a game over says so.
  function renderStatus() {
    const badge = $("live-badge");
    if (badge) {
      const n = moves().length;
      const over = !!shownGame().result;
      const [text, kind] = view.archived ? [`${T.game} ${view.archived.number} · ${shownPly()} / ${n}`, "history"]
        : view.ply !== null ? [`${shownPly()} / ${n}`, "history"]
        : view.missing !== null ? [T.no_such_game.replace("{game}", view.missing), "missing"]
        : !view.connected ? [T.connection_lost, "offline"]
        : over ? [T.finished, "finished"]
        : view.state.camera === "ended" ? [T.camera_ended, "finished"] : [T.live, ""];
      badge.textContent = text;
      badge.className = `live-badge${kind ? ` ${kind}` : ""}`;
    }
    const delay = $("delay-note");
    if (delay) delay.textContent = view.state.delay ? ` · ${T.delay} ${Math.round(view.state.delay)} ${T.seconds}` : "";
  }

  function tickClock() {
    const box = $("clock");
    if (!box) return;
    const clock = view.state.clock;
    const over = !!view.state.game.result;
    const timeEl = box.querySelector(".clock-time");
    box.hidden = over; // a finished game has no clock
    box.querySelector(".clock-side").textContent = T[clock.side];
    if (over || !clock.started || clock.started < 1e9) { // no wall-clock time: a replayed video
      timeEl.textContent = "—";
      box.querySelector(".clock-limit").textContent = "";
      box.dataset.level = "";
      return;
    }
    // A stopped clock (the camera ended) shows the time the move had taken when it stopped.
    const now = clock.stopped ?? Date.now() / 1000 + view.clockOffset - (view.state.delay || 0);
    const elapsed = now - clock.started;
    box.classList.toggle("stopped", clock.stopped !== null && clock.stopped !== undefined);
    const limit = clock.limit_seconds;
    timeEl.textContent = Makhos.clockText(elapsed);
    box.querySelector(".clock-limit").textContent = `/ ${Makhos.clockText(limit)}` +
      (clock.extra_seconds ? ` (+${Math.round(clock.extra_seconds / 60)} ${T.extra})` : "");
    // RULES.md: warn at 1:30 and 1:50 (yellow), 2:00 is red; extra time moves them all.
    box.dataset.level = elapsed >= limit ? "red" : elapsed >= limit - 10 ? "yellow2" : elapsed >= limit - 30 ? "yellow" : "";
  }

  function render() {
    renderBoard();
    renderPlayers();
    renderMoves();
    renderResult();
    renderAlerts();
    renderMatchGames();
    renderStatus();
    tickClock();
  }

  // Show a ply (the end: follow live); on the board page each step is a history entry.
  // In an earlier game the end is its last ply; one step past it returns to the live game.
  function go(ply) {
    const n = moves().length;
    if (view.archived && ply > n) {
      view.archived = null;
      view.ply = null;
    } else {
      ply = Math.max(0, Math.min(n, ply));
      const shown = ply === n && !view.archived ? null : ply;
      if (shown === view.ply) return;
      view.ply = shown;
    }
    if (options.history) history.pushState(null, "", address(view.ply));
    render();
  }

  // The game a link names, when it is not the one being played: its record, from the API.
  async function earlierGame(number) {
    try {
      const response = await fetch(`/api/board/${encodeURIComponent(view.state.board)}/game/${number}`);
      return response.ok ? await response.json() : null;
    } catch (error) {
      return null;
    }
  }

  let addressTurn = 0; // the latest look at the address: an older one's fetch is dropped
  async function followAddress() {
    const turn = ++addressTurn;
    const wanted = inAddress();
    view.archived = null;
    if (wanted.game !== null && wanted.game !== view.state.game.number) {
      const record = await earlierGame(wanted.game);
      if (turn !== addressTurn) return;
      view.archived = record;
      // No such game: follow the live one, and say that the link named a game not played here.
      if (!view.archived) wanted.ply = null;
      view.missing = view.archived ? null : wanted.game;
    } else {
      view.missing = null;
    }
    view.ply = wanted.ply === null ? (view.archived ? moves().length : null) : Math.min(wanted.ply, moves().length);
    render();
  }

  followAddress();
  if (options.history) {
    window.addEventListener("popstate", followAddress); // the back and forward buttons
    window.addEventListener("hashchange", followAddress); // a #ply= typed or pasted
  }

  function navigate(action) {
    const here = shownPly();
    const end = view.archived && here === moves().length ? here + 1 : moves().length;
    ({first: () => go(0), prev: () => go(here - 1), next: () => go(here + 1), last: () => go(end)})[action]();
  }

  for (const b of document.querySelectorAll("[data-nav]")) b.addEventListener("click", () => navigate(b.dataset.nav));
  const flip = $("flip");
  if (flip) flip.addEventListener("click", () => {
    view.flipped = !view.flipped;
    store.setItem("makhos.flip", view.flipped ? "1" : "0");
    render();
  });
  const numbers = $("numbers");
  if (numbers) {
    numbers.checked = view.numbers;
    numbers.addEventListener("change", () => {
      view.numbers = numbers.checked;
      store.setItem("makhos.numbers", view.numbers ? "1" : "0");
      renderBoard();
    });
  }
  if (options.keyboard !== false) {
    document.addEventListener("keydown", (e) => {
      if (e.target.closest && e.target.closest("input, select, textarea")) return;
      const action = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[e.key];
      if (!action) return;
      e.preventDefault();
      navigate(action);
    });
  }

  // The camera's board when the last move was accepted (#board-picture, on the referee's
  // console and where the organiser turns it on): fetched again when a ply comes, never as
  // video; hidden until a move has given one (204 until then). A data: address, as the
  // pages' policy allows.
  const boardPicture = $("board-picture");
  let pictured = null;
  function showBoardPicture(state) {
    const plies = state.game ? state.game.moves.length : 0;
    const shown = state.game ? `${state.game.number}:${plies}` : "";  // a new game's start too
    if (!boardPicture || shown === pictured) return;
    pictured = shown;
    fetch(`${boardPicture.dataset.src}?ply=${plies}`, {credentials: "same-origin"})
      .then((response) => (response.status === 200 ? response.blob() : null))
      .then((jpeg) => {
        if (!jpeg) { boardPicture.parentElement.hidden = true; return; }
        const reader = new FileReader();
        reader.onload = () => {
          boardPicture.src = reader.result;
          boardPicture.dataset.ply = String(plies);
          boardPicture.parentElement.hidden = false;
        };
        reader.readAsDataURL(jpeg);
      })
      .catch(() => {});  // the next ply asks again
  }

  function setState(state) {
    const newGame = state.game.number !== view.state.game.number;
    view.state = state;
    if (!view.archived && (newGame || (view.ply !== null && view.ply > moves().length))) {
      view.ply = null; // that position is not in this game (a new game, a take-back)
      if (options.history) history.replaceState(null, "", address(null));
    }
    render();
    showBoardPicture(state);
    if (hooks.onState) hooks.onState(state);
  }

  Makhos.connect(options.stream, (message) => {
    if (message.state) setState(message.state);
  }, (ok) => { view.connected = ok; renderStatus(); }, analysis ? {analysis: analysis.receive} : {});

  render();
  showBoardPicture(view.state);
  setInterval(tickClock, 250);
  return {view, render, go, setState};
};
