// Shared by every page: reading FEN, drawing the board as SVG, the SSE connection, text.
// No build step and no library: the pages must work offline in a tournament hall.
"use strict";

const Makhos = (() => {
  const SVGNS = "http://www.w3.org/2000/svg";
  const SQ = 100; // one square of the 800x800 viewBox

  // "B:W1,2,K3:B25-28" -> {turn: "dark", pieces: {1: "l", 3: "L", 25: "d", ...}}
  function parseFen(fen) {
    const parts = (fen || "").replace(/\.$/, "").split(":");
    const pieces = {};
    for (const part of parts.slice(1)) {
      const side = part.trim()[0];
      if (!side) continue;
      const dark = side.toUpperCase() === "B";
      for (let token of part.trim().slice(1).split(",")) {
        token = token.trim();
        if (!token) continue;
        const king = token[0].toUpperCase() === "K";
        const [a, b] = (king ? token.slice(1) : token).split("-").map(Number);
        for (let s = a; s <= (b || a); s++) {
          pieces[s] = king ? (dark ? "D" : "L") : (dark ? "d" : "l");
        }
      }
    }
    return {turn: (parts[0] || "B").trim().toUpperCase() === "B" ? "dark" : "light", pieces};
  }

  // As engine/squares.py row_col: row 0 holds squares 1-4; col 0 is dark's left edge.
  function rowCol(square) {
    const row = Math.floor((square - 1) / 4);
    const i = (square - 1) % 4;
    return [row, 2 * i + (row % 2 === 0 ? 1 : 0)];
  }

  function node(tag, attrs, parent) {
    const el = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    if (parent) parent.appendChild(el);
    return el;
  }

  function centre(square, flipped) {
    const [r, c] = rowCol(square);
    const x = (flipped ? 7 - c : c) * SQ;
    const y = (flipped ? 7 - r : r) * SQ;
    return [x + SQ / 2, y + SQ / 2, x, y];
  }

  function disc(g, cx, cy, colour) {
    node("circle", {cx, cy, r: 38, class: `man ${colour}`}, g);
    node("circle", {cx, cy, r: 27, class: `ring ${colour}`}, g);
  }

  // opts: {fen, last: {path, captured}, flipped, numbers}
  function drawBoard(svg, opts) {
    const {pieces} = parseFen(opts.fen);
    const flipped = !!opts.flipped;
    svg.textContent = "";
    const squares = node("g", {class: "squares"}, svg);
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        const x = (flipped ? 7 - c : c) * SQ, y = (flipped ? 7 - r : r) * SQ;
        node("rect", {x, y, width: SQ, height: SQ, class: (r + c) % 2 ? "sq played" : "sq unplayed"}, squares);
      }
    }
    const last = opts.last || {path: [], captured: []};
    const marks = node("g", {class: "marks"}, svg);
    last.path.forEach((s, i) => {
      const [, , x, y] = centre(s, flipped);
      const end = i === 0 || i === last.path.length - 1;
      node("rect", {x, y, width: SQ, height: SQ, class: end ? "last-move" : "last-landing", "data-square": s}, marks);
    });
    if (last.path.length > 2) {
      const points = last.path.map((s) => centre(s, flipped).slice(0, 2).join(",")).join(" ");
      node("polyline", {points, class: "chain"}, marks);
    }
    const layer = node("g", {class: "pieces"}, svg);
    for (const [square, p] of Object.entries(pieces)) {
      const [cx, cy] = centre(Number(square), flipped);
      const colour = p.toLowerCase() === "d" ? "dark" : "light";
      const g = node("g", {class: `piece ${colour}${p === p.toUpperCase() ? " king" : ""}`, "data-square": square}, layer);
      if (p === p.toUpperCase()) { // a king (ฮอส) is two men stacked
        disc(g, cx, cy + 7, colour);
        disc(g, cx, cy - 7, colour);
      } else {
        disc(g, cx, cy, colour);
      }
    }
    if (opts.numbers) {
      const nums = node("g", {class: "numbers"}, svg);
      for (let s = 1; s <= 32; s++) {
        const [, , x, y] = centre(s, flipped);
        node("text", {x: x + 4, y: y + 17, class: "sq-number"}, nums).textContent = s;
      }
    }
    for (const s of last.captured || []) {
      const [cx, cy] = centre(s, flipped);
      const g = node("g", {class: "captured", "data-square": s}, marks.parentNode);
      node("circle", {cx, cy, r: 30}, g);
      node("path", {d: `M${cx - 14},${cy - 14}L${cx + 14},${cy + 14}M${cx + 14},${cy - 14}L${cx - 14},${cy + 14}`}, g);
    }
  }

  function readJson(id) {
    const el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  // EventSource reconnects by itself and sends Last-Event-ID, so no update is lost. A
  // "reset" (the server's log is not the one that id came from) carries the state as it is
  // now, or null on the hall's stream; every event of the new log follows it.
  function connect(url, onUpdate, onStatus) {
    const source = new EventSource(url);
    source.addEventListener("update", (e) => onUpdate(JSON.parse(e.data), Number(e.lastEventId)));
    source.addEventListener("reset", (e) => onUpdate(JSON.parse(e.data), 0));
    source.onopen = () => onStatus && onStatus(true);
    source.onerror = () => onStatus && onStatus(false);
    return source;
  }

  function clockText(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = text; // never innerHTML: names come from outside
    return e;
  }

  // The language toggle remembers the choice for the next page too.
  document.addEventListener("click", (e) => {
    const link = e.target.closest && e.target.closest(".lang-toggle");
    if (link) document.cookie = `lang=${link.dataset.lang}; path=/; max-age=31536000; samesite=lax`;
  });

  // A board as the organiser named it, else "Board 7" in the page's language.
  function boardTitle(board, T) {
    return board.label || `${T.board} ${board.board}`;
  }

  return {parseFen, rowCol, drawBoard, readJson, connect, clockText, el, boardTitle};
})();
