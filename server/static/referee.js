// The referee console: the live viewer plus decisions posted to the action API, and a
// WebAudio beep while an alert is open and not yet acknowledged.
"use strict";

Makhos.referee = function (options) {
  const T = Makhos.readJson("strings");
  const status = document.getElementById("ref-status");
  const soundButton = document.getElementById("sound");
  let audio = null;
  const heard = new Set();

  function beep() {
    if (!audio) return;
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.type = "square";
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  }

  soundButton.addEventListener("click", () => {
    // Browsers allow audio only after a gesture: this click is it.
    if (audio) { audio.close(); audio = null; } else { audio = new AudioContext(); beep(); }
    soundButton.setAttribute("aria-pressed", audio ? "true" : "false");
  });

  async function send(body) {
    status.textContent = "…";
    status.className = "ref-status";
    try {
      const response = await fetch(options.action, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
      });
      const reply = await response.json();
      status.textContent = response.ok ? `✓ ${T[body.action] || body.action}` : `✗ ${reply.message}`;
      status.className = `ref-status ${response.ok ? "ok" : "error"}`;
    } catch (error) {
      status.textContent = `✗ ${error}`;
      status.className = "ref-status error";
    }
  }

  function button(label, body) {
    const b = Makhos.el("button", "small", label);
    b.type = "button";
    b.addEventListener("click", () => send(body));
    return b;
  }

  function alertButtons(alert) {
    const box = Makhos.el("div", "alert-actions");
    if (!alert.acknowledged) box.appendChild(button(T.acknowledge, {action: "acknowledge", alert: alert.seq}));
    if (alert.kind === "irregularity") box.appendChild(button(T.accept_move, {action: "accept_move", alert: alert.seq}));
    // Plies unseen during a gap that several lines explain: the referee says which was played.
    for (const line of alert.detail.lines || []) {
      box.appendChild(button(line, {action: "choose_line", alert: alert.seq, line}));
    }
    box.appendChild(button(T.dismiss, {action: "dismiss", alert: alert.seq}));
    return box;
  }

  // A decision that ends a game (data-confirm) takes two clicks: the first arms the button
  // for a few seconds and says what a second click will do.
  const CONFIRM_MS = 5000;
  function confirmed(form) {
    if (!("confirm" in form.dataset)) return true;
    const button = form.querySelector("button");
    if (button.classList.contains("confirming")) {
      clearTimeout(form.confirmTimer);
      button.classList.remove("confirming");
      button.textContent = T.apply;
      return true;
    }
    const choice = form.querySelector("select");
    button.classList.add("confirming");
    button.textContent = `${T.confirm}: ${choice ? choice.selectedOptions[0].textContent : ""}`;
    form.confirmTimer = setTimeout(() => {
      button.classList.remove("confirming");
      button.textContent = T.apply;
    }, CONFIRM_MS);
    return false;
  }

  // A new game from a position: the board the camera reads next, its side to move named,
  // or a FEN, which names its own; the server says what is wrong with either.
  function fromPosition(body, submitter) {
    if (submitter && submitter.value === "board") {
      body.from_board = true;
      delete body.fen;
    } else {
      delete body.turn;
    }
  }

  for (const form of document.querySelectorAll("form[data-action]")) {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!confirmed(form)) return;
      const body = {action: form.dataset.action};
      const rules = {};
      for (const field of form.querySelectorAll("input[name], select[name]")) {
        if ("optional" in field.dataset && !field.value.trim()) continue;  // the API's default
        const value = "int" in field.dataset ? parseInt(field.value, 10) : field.value;
        if ("rule" in field.dataset) rules[field.name] = value;
        else body[field.name] = value;
      }
      if (form.dataset.action === "new_game") body.rules = rules;
      if ("fromPosition" in form.dataset) fromPosition(body, e.submitter);
      if (form.dataset.action === "correct_move") {
        const open = viewer.view.state.alerts.find((a) => a.kind === "irregularity");
        if (open) body.alert = open.seq;
      }
      send(body);
    });
  }

  const SILENT_S = 5;
  // What the camera makes of the board: its state, how often it is found, the camera's
  // shake and how long since the last read, or how long the recorder has been silent.
  async function showVision(line) {
    let health = null;
    try {
      const response = await fetch(options.vision, {credentials: "same-origin"});
      if (response.ok) health = await response.json();
    } catch (error) { /* offline: say nothing new */ }
    if (!health) { line.textContent = ""; return; }
    // A recorder that has written nothing for a while: what it last wrote is old news, so
    // the line says only how long it has been silent and how long since its last read.
    const silent = health.age > SILENT_S;
    const sinceRead = health.since_read === null ? T.vision_never_read
      : `${T.vision_last_read} ${(health.since_read + (silent ? health.age : 0)).toFixed(0)} s`;
    const parts = silent ? [`${T.vision_silent} ${health.age.toFixed(0)} s`, sinceRead]
      : [T["vision_" + health.state] || health.state,
         `${T.vision_found} ${Math.round(health.found * 100)} %`,
         `${T.vision_shake} ${health.shake_px.toFixed(1)} px`, sinceRead];
    line.textContent = `${T.vision}: ${parts.join(" · ")}`;
    line.dataset.state = silent ? "silent" : health.state;
  }

  function alarm(state) {
    const fresh = state.alerts.filter((a) => !a.acknowledged && !heard.has(a.seq));
    fresh.forEach((a) => heard.add(a.seq));
    if (fresh.length) beep();
  }

  // The review report of each game over (the report answers 409 before the end): the
  // match's finished games and the current one. A plain link in a new tab: the console's
  // cookie goes with it, as with snapshot.jpg, and the console keeps running.
  const reports = document.getElementById("review-reports");
  function showReports(state) {
    const over = new Set(state.match.results.filter((r) => r.outcome).map((r) => r.game));
    if (state.game.result) over.add(state.game.number);
    const numbers = [...over].sort((a, b) => a - b);
    const shown = numbers.join(",");
    if (reports.dataset.games === shown) return;
    reports.dataset.games = shown;
    reports.textContent = "";
    for (const number of numbers) {
      const a = Makhos.el("a", null, `${T.review_report} · ${T.game} ${number}`);
      a.href = `${options.report}?game=${number}`;
      a.target = "_blank";
      a.rel = "noopener";
      reports.appendChild(a);
    }
    reports.hidden = !numbers.length;
  }

  const viewer = Makhos.viewer({
    stream: options.stream, alertButtons,
    onState: (state) => { alarm(state); showReports(state); },
  });
  // Start the players form from the match as it stands: a correction, not a retyping.
  const match = viewer.view.state.match;
  const players = document.querySelector('form[data-action="set_players"]');
  for (const name of ["first", "second", "round", "games"]) {
    if (match[name]) players.elements[name].value = match[name];
  }
  alarm(viewer.view.state);
  showReports(viewer.view.state);
  const vision = document.getElementById("vision");
  if (vision) {
    showVision(vision);
    setInterval(() => showVision(vision), 2000);
  }
  // Keep reminding while an alert is open and nobody has acknowledged it.
  setInterval(() => {
    if (viewer.view.state.alerts.some((a) => !a.acknowledged)) beep();
  }, 5000);
  return viewer;
};
