// The calibration page: four draggable corners over the camera frame, a preview of the
// rectified board and its reading after each drag, and saving them into the profile.
"use strict";

Makhos.calibration = function (urls) {
  const T = Makhos.readJson("strings");
  const initial = Makhos.readJson("initial");
  const svg = document.getElementById("corners");
  const frame = document.getElementById("frame");
  const preview = document.getElementById("board-view");
  const status = document.getElementById("calibration-status");
  const NS = "http://www.w3.org/2000/svg";
  let corners = initial.corners.map((c) => c.slice());
  let turns = initial.quarter_turns;
  const radius = Math.max(initial.size[0], initial.size[1]) / 80;

  function node(name, attrs) {
    const el = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.appendChild(el);
    return el;
  }

  function draw() {
    svg.replaceChildren();
    node("polygon", {points: corners.map((c) => c.join(",")).join(" "), class: "board-outline"});
    corners.forEach((c, i) => {
      // Corner 1 is square 1's corner: the profile's corners rolled by the quarter turns.
      const number = ((i - turns + 4) % 4) + 1;
      const handle = node("circle", {cx: c[0], cy: c[1], r: radius, class: "corner-handle", "data-index": i});
      const label = node("text", {x: c[0] + radius * 1.3, y: c[1] - radius * 1.3, class: "corner-label"});
      label.textContent = number;
      handle.addEventListener("pointerdown", (e) => drag(e, i));
    });
  }

  function toImage(e) {
    const box = svg.getBoundingClientRect();
    return [(e.clientX - box.left) * initial.size[0] / box.width,
            (e.clientY - box.top) * initial.size[1] / box.height];
  }

  function drag(event, index) {
    event.preventDefault();
    const move = (e) => { corners[index] = toImage(e).map((v) => Math.round(v * 10) / 10); draw(); };
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      refresh();
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  }

  function refresh() {
    const query = new URLSearchParams({corners: corners.flat().join(","), turns: String(turns), t: Date.now()});
    preview.src = `${urls.board}?${query}`;
  }

  document.getElementById("turn").addEventListener("click", () => { turns = (turns + 1) % 4; draw(); refresh(); });
  document.getElementById("reset").addEventListener("click", () => {
    corners = initial.corners.map((c) => c.slice());
    turns = initial.quarter_turns;
    draw(); refresh();
  });
  document.getElementById("save").addEventListener("click", async () => {
    const response = await fetch(urls.save, {method: "POST", headers: {"Content-Type": "application/json"},
                                             body: JSON.stringify({corners, quarter_turns: turns})});
    const body = await response.json();
    status.textContent = response.ok ? `${T.saved}: ${body.profile}` : body.message;
    if (response.ok) { initial.corners = body.corners; initial.quarter_turns = body.quarter_turns; }
  });
  // A fresh camera frame every two seconds, so the corners are checked against the board now.
  setInterval(() => { frame.src = `${urls.frame}?t=${Date.now()}`; }, 2000);
  draw();
};
