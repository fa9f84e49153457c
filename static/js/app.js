/* Wordgame front end: the small amount of client state htmx cannot hold.
 *
 * The server renders everything (docs/games-ui-contract.md). This file keeps the tiles the
 * player is placing ("pending"), which exist only in the browser until Play is pressed:
 * it lays them on the board, serialises them into the play form's `tiles` field
 * ("row,col,LETTER,b|n;..."), asks for the free preview, and lays them again after every
 * swap (HTTP responses and WebSocket pushes replace #board, #rack and #move-panel).
 * Placing works by drag and drop (pointer events, so touch too), tap-a-tile-then-a-square,
 * and the keyboard. It also keeps the page chrome: the dialogs, focus across swaps, the
 * title and the phone tabs.
 *
 * The other modules: live.js is the version protocol (which version the page shows, which
 * frames and answers may be swapped in, resync and the computer's checks); this file only
 * reacts once they have been. notices.js tells the player what others changed (read-outs,
 * notifications); site.js holds what the other game pages need (lobby, replay).
 *
 * An ES module: deferred like the classic scripts, run in document order after htmx and
 * its ws extension and before DOMContentLoaded, when htmx processes the page and opens the
 * socket, so every listener here and in live.js is in place before the first frame.
 */
import { Live } from "./live.js";
import { Notices, announce } from "./notices.js";

const DRAG_THRESHOLD = 6;   // px of movement before a press on a tile becomes a drag
const PREVIEW_DELAY = 120;  // ms: coalesce quick keyboard placements into one preview

/** Replace %(name)s placeholders (Django's style, so translators see one syntax). */
function fmt(template, values) {
  return String(template || "").replace(/%\((\w+)\)s/g, (_, k) => (k in values ? String(values[k]) : ""));
}

function readJSON(id, fallback) {
  const el = document.getElementById(id);
  if (!el) return fallback;
  try { return JSON.parse(el.textContent); } catch (e) { return fallback; }
}

/* ------------------------------------------------------------------------------------
 * Game page
 * ---------------------------------------------------------------------------------- */
function Game(root) {
  this.root = root;
  this.strings = readJSON("game-strings", {});
  this.tileValues = readJSON("game-tile-values", {});
  this.blankLetters = readJSON("game-blank-letters", []);
  this.lang = root.dataset.language || document.documentElement.lang || "en";
  this.viewerSeat = root.dataset.viewerSeat === "" ? null : Number(root.dataset.viewerSeat);
  this.pending = [];          // [{row, col, letter, blank, rackIndex}] in placement order
  this.selected = null;       // rack index chosen by tap/keyboard, waiting for a square
  this.cursor = { row: 7, col: 7, dir: "across" };
  this.rackOrder = null;      // rack indices in the player's shuffled order
  this.rackSignature = "";
  this.previewTimer = null;
  this.focusKey = null;       // what had focus before a swap replaced it
  this.refreshQueued = false;
  this.drag = null;
  this.suppressClick = false;
  // Before bind(): its listeners decide what is swapped in, ours react to that.
  this.live = new Live(root, {
    lastMove: this.strings.last_move || "",
    onReconnect: () => announce(this.strings.reconnected),
  });
  this.notices = new Notices(root, this.strings, this.viewerSeat, this.live.known);
  this.blankPicker = document.getElementById("blank-picker");
  this.swapDialog = document.getElementById("swap-dialog");
  this.bind();
  this.restoreFromServer();
  this.refresh(true);
}

Game.prototype.square = function (row, col) {
  return document.querySelector(`#board .sq[data-row="${row}"][data-col="${col}"]`);
};

Game.prototype.rackTiles = function () {
  return Array.from(document.querySelectorAll("#rack .rack-tile"));
};

Game.prototype.rackTile = function (index) {
  return document.querySelector(`#rack .rack-tile[data-index="${index}"]`);
};

Game.prototype.pendingAt = function (row, col) {
  return this.pending.find((p) => p.row === row && p.col === col) || null;
};

Game.prototype.isUsed = function (index) {
  return this.pending.some((p) => p.rackIndex === index);
};

/** A square that holds a committed tile (played earlier) cannot take a new one. */
Game.prototype.isCommitted = function (sq) {
  return !!sq && sq.dataset.letter !== undefined && sq.dataset.letter !== "";
};

Game.prototype.serialise = function () {
  return this.pending.map((p) => `${p.row},${p.col},${p.letter},${p.blank ? "b" : "n"}`).join(";");
};

/* --- bringing pending tiles back after a swap -------------------------------------- */

/** After a failed play with no client state (a reload), use the server's `pending`. */
Game.prototype.restoreFromServer = function () {
  const panel = document.getElementById("move-panel");
  const raw = panel ? panel.dataset.pending : "";
  if (!raw || this.pending.length) return;
  const used = new Set();
  raw.split(";").forEach((part) => {
    const [r, c, letter, flag] = part.split(",");
    const blank = flag === "b";
    const want = blank ? "?" : letter;
    const tile = this.rackTiles().find((t) => t.dataset.letter === want && !used.has(Number(t.dataset.index)));
    if (!tile || !letter || letter === "?") return;
    used.add(Number(tile.dataset.index));
    this.pending.push({ row: Number(r), col: Number(c), letter, blank, rackIndex: Number(tile.dataset.index) });
  });
};

/** Drop pending tiles whose square was taken or whose rack tile is gone (it was played). */
Game.prototype.reconcile = function () {
  const taken = new Set();
  const kept = [];
  for (const p of this.pending) {
    const sq = this.square(p.row, p.col);
    if (!sq || this.isCommitted(sq)) continue;
    const want = p.blank ? "?" : p.letter;
    let tile = this.rackTile(p.rackIndex);
    if (!tile || tile.dataset.letter !== want || taken.has(p.rackIndex)) {
      tile = this.rackTiles().find((t) => t.dataset.letter === want && !taken.has(Number(t.dataset.index)));
    }
    if (!tile) continue;
    p.rackIndex = Number(tile.dataset.index);
    taken.add(p.rackIndex);
    kept.push(p);
  }
  const dropped = this.pending.length - kept.length;
  this.pending = kept;
  if (this.selected !== null && (!this.rackTile(this.selected) || this.isUsed(this.selected))) this.selected = null;
  return dropped;
};

/** Keep the player's shuffled order while the rack holds the same tiles. */
Game.prototype.applyRackOrder = function () {
  const list = document.querySelector("#rack .rack-tiles");
  if (!list) return;
  const signature = this.rackSig();
  if (signature !== this.rackSignature) {
    this.rackSignature = signature;
    this.rackOrder = null;
    return;
  }
  if (!this.rackOrder) return;
  this.rackOrder.forEach((index) => {
    const tile = this.rackTile(index);
    if (tile && tile.parentElement) list.appendChild(tile.parentElement);
  });
};

/** Lay the pending tiles into the current DOM (called after every change and swap). */
Game.prototype.render = function () {
  document.querySelectorAll("#board .sq.has-pending").forEach((sq) => {
    sq.classList.remove("has-pending");
    const t = sq.querySelector(".tile.pending");
    if (t) t.remove();
    if (sq.dataset.emptyLabel) sq.setAttribute("aria-label", sq.dataset.emptyLabel);
  });
  for (const p of this.pending) {
    const sq = this.square(p.row, p.col);
    if (!sq) continue;
    if (!sq.dataset.emptyLabel) sq.dataset.emptyLabel = sq.getAttribute("aria-label") || "";
    sq.classList.add("has-pending");
    sq.appendChild(this.tileElement(p.letter, p.blank, true));
    const value = p.blank ? 0 : this.tileValues[p.letter];
    sq.setAttribute("aria-label", fmt(p.blank ? this.strings.pending_blank_label : this.strings.pending_label,
      { square: sq.dataset.name || sq.dataset.label, letter: p.letter, value: value === undefined ? "" : value }));
  }
  this.rackTiles().forEach((t) => {
    const index = Number(t.dataset.index);
    t.classList.toggle("is-used", this.isUsed(index));
    t.setAttribute("aria-pressed", this.selected === index ? "true" : "false");
    if (this.isUsed(index)) t.setAttribute("tabindex", "-1"); else t.removeAttribute("tabindex");
  });
  this.renderCursor();
  document.querySelectorAll('input[name="tiles"]').forEach((input) => { input.value = this.serialise(); });
  const recall = document.querySelector('[data-action="recall"]');
  if (recall) recall.disabled = this.pending.length === 0;
};

Game.prototype.tileElement = function (letter, blank, pending) {
  const tile = document.createElement("span");
  tile.className = "tile" + (blank ? " blank" : "") + (pending ? " pending" : "");
  tile.setAttribute("aria-hidden", "true");
  const l = document.createElement("span");
  l.className = "letter";
  l.textContent = letter;
  tile.appendChild(l);
  if (!blank && this.tileValues[letter] !== undefined) {
    const v = document.createElement("span");
    v.className = "value";
    v.dataset.value = this.tileValues[letter];  // drawn by CSS, as on the board
    tile.appendChild(v);
  }
  return tile;
};

/** Roving tabindex: exactly one square is in the tab order, the cursor. */
Game.prototype.renderCursor = function () {
  const squares = document.querySelectorAll("#board .sq");
  if (!squares.length) return;
  squares.forEach((sq) => {
    sq.tabIndex = -1;
    sq.classList.remove("is-cursor");
    sq.removeAttribute("data-dir");
  });
  const sq = this.square(this.cursor.row, this.cursor.col);
  if (!sq) return;
  sq.tabIndex = 0;
  if (document.activeElement === sq || this.root.classList.contains("placing")) {
    sq.classList.add("is-cursor");
    sq.dataset.dir = this.cursor.dir;
  }
};

/* --- changes to the pending tiles ---------------------------------------------------- */

Game.prototype.changed = function () {
  this.render();
  this.requestPreview();
};

Game.prototype.setPreviewState = function (text, cls) {
  const line = document.querySelector("#move-panel .preview-line");
  if (line) {
    line.className = "preview-line" + (cls ? " " + cls : "");
    line.textContent = text;
  }
  const play = document.querySelector("#move-panel .play-button");
  if (play) {
    play.disabled = true;
    const label = play.querySelector(".label");
    if (label) label.textContent = this.strings.play || label.textContent;
  }
};

/** Ask the server what the pending tiles are worth; the answer replaces #move-panel. */
Game.prototype.requestPreview = function () {
  window.clearTimeout(this.previewTimer);
  if (!this.pending.length) {
    this.setPreviewState(this.strings.hint || "", "");
    return;
  }
  this.setPreviewState(this.strings.checking || "…", "");
  const form = document.getElementById("preview-form");
  if (!form || !window.htmx) return;
  this.previewTimer = window.setTimeout(() => {
    form.querySelector('input[name="tiles"]').value = this.serialise();
    window.htmx.trigger(form, "preview-request");
  }, PREVIEW_DELAY);
};

Game.prototype.place = function (rackIndex, row, col, letter) {
  const tile = this.rackTile(rackIndex);
  const sq = this.square(row, col);
  if (!tile || !sq || this.isCommitted(sq)) return false;
  const existing = this.pendingAt(row, col);
  if (existing && existing.rackIndex !== rackIndex) this.unplace(existing);
  this.pending = this.pending.filter((p) => p.rackIndex !== rackIndex);
  const blank = tile.dataset.letter === "?";
  const placed = { row, col, letter: blank ? (letter || "?") : tile.dataset.letter, blank, rackIndex };
  this.pending.push(placed);
  this.selected = null;
  this.cursor.row = row;
  this.cursor.col = col;
  if (blank && !letter) {
    this.render();
    this.pickBlank().then((chosen) => {
      if (!this.pending.includes(placed)) return;
      if (chosen) placed.letter = chosen; else this.unplace(placed);
      this.changed();
      this.focusSquare(placed.row, placed.col);
    });
    return true;
  }
  this.changed();
  return true;
};

Game.prototype.unplace = function (p) {
  this.pending = this.pending.filter((q) => q !== p);
};

Game.prototype.recall = function () {
  this.pending = [];
  this.selected = null;
  this.changed();
};

Game.prototype.shuffle = function () {
  const tiles = this.rackTiles().map((t) => Number(t.dataset.index));
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  this.rackOrder = tiles;
  this.rackSignature = this.rackSig();
  this.applyRackOrder();
};

/** Which tiles the rack holds (by index and letter), whatever their order on screen. */
Game.prototype.rackSig = function () {
  return this.rackTiles().map((t) => t.dataset.index + t.dataset.letter).sort().join("|");
};

/** Blank letter picker: resolves with the chosen letter, or null when cancelled. */
Game.prototype.pickBlank = function () {
  const dialog = this.blankPicker;
  if (!dialog || typeof dialog.showModal !== "function") {
    const answer = window.prompt(this.strings.blank_prompt || "?", "");
    const letter = (answer || "").trim().toLocaleUpperCase(this.lang);
    return Promise.resolve(this.blankLetters.includes(letter) ? letter : null);
  }
  return new Promise((resolve) => {
    const onClose = () => {
      dialog.removeEventListener("close", onClose);
      const value = dialog.returnValue;
      resolve(value && value !== "cancel" ? value : null);
    };
    dialog.returnValue = "";
    dialog.addEventListener("close", onClose);
    dialog.showModal();
  });
};

/* --- keyboard ---------------------------------------------------------------------- */

Game.prototype.focusSquare = function (row, col) {
  this.cursor.row = Math.max(0, Math.min(14, row));
  this.cursor.col = Math.max(0, Math.min(14, col));
  this.root.classList.add("placing");
  this.renderCursor();
  const sq = this.square(this.cursor.row, this.cursor.col);
  if (sq) sq.focus({ preventScroll: false });
};

/** The next square along the direction that can take a tile (skips committed tiles). */
Game.prototype.nextFree = function (row, col, step) {
  const [dr, dc] = this.cursor.dir === "across" ? [0, step] : [step, 0];
  let r = row, c = col;
  for (;;) {
    r += dr; c += dc;
    if (r < 0 || r > 14 || c < 0 || c > 14) return null;
    const sq = this.square(r, c);
    if (!this.isCommitted(sq) && !this.pendingAt(r, c)) return { row: r, col: c };
  }
};

Game.prototype.typeLetter = function (raw) {
  const letter = raw.toLocaleUpperCase(this.lang);
  let { row, col } = this.cursor;
  const sq = this.square(row, col);
  if (this.isCommitted(sq) || this.pendingAt(row, col)) {
    const next = this.nextFree(row, col, 1);
    if (!next) return;
    row = next.row; col = next.col;
  }
  const free = this.rackTiles().filter((t) => !this.isUsed(Number(t.dataset.index)));
  let tile = free.find((t) => t.dataset.letter === letter);
  let asBlank = null;
  if (!tile && this.blankLetters.includes(letter)) {
    tile = free.find((t) => t.dataset.letter === "?");
    asBlank = letter;
  }
  if (!tile) {
    announce(fmt(this.strings.no_tile, { letter }));
    return;
  }
  this.place(Number(tile.dataset.index), row, col, asBlank || undefined);
  const next = this.nextFree(row, col, 1);
  this.focusSquare(next ? next.row : row, next ? next.col : col);
  if (asBlank) announce(fmt(this.strings.placed_blank, { letter }));
};

Game.prototype.backspace = function () {
  const last = this.pending[this.pending.length - 1];
  if (!last) return;
  this.unplace(last);
  this.changed();
  this.focusSquare(last.row, last.col);
};

Game.prototype.toggleDirection = function () {
  this.cursor.dir = this.cursor.dir === "across" ? "down" : "across";
  this.renderCursor();
  announce(this.cursor.dir === "across" ? this.strings.dir_across : this.strings.dir_down);
};

Game.prototype.playIfReady = function () {
  const play = document.querySelector("#move-panel .play-button");
  if (play && !play.disabled) { play.click(); return true; }
  return false;
};

Game.prototype.onBoardKey = function (e) {
  const sq = e.target.closest(".sq");
  if (!sq || e.altKey || e.ctrlKey || e.metaKey) return;
  const row = Number(sq.dataset.row), col = Number(sq.dataset.col);
  this.cursor.row = row; this.cursor.col = col;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[e.key]) {
    e.preventDefault();
    this.focusSquare(row + moves[e.key][0], col + moves[e.key][1]);
  } else if (e.key === "Home" || e.key === "End") {
    e.preventDefault();
    this.focusSquare(row, e.key === "Home" ? 0 : 14);
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    if (this.selected !== null) {
      this.place(this.selected, row, col);
    } else if (e.key === "Enter" && this.pending.length) {
      if (!this.playIfReady()) announce(this.strings.cannot_play);
    } else {
      this.toggleDirection();
    }
  } else if (e.key === "Backspace" || e.key === "Delete") {
    e.preventDefault();
    const here = this.pendingAt(row, col);
    if (e.key === "Delete" && here) { this.unplace(here); this.changed(); } else this.backspace();
  } else if (e.key === "Escape") {
    if (this.selected !== null) { this.selected = null; this.render(); } else if (this.pending.length) this.recall();
  } else if (e.key.length === 1 && /\p{L}/u.test(e.key)) {
    e.preventDefault();
    this.typeLetter(e.key);
  }
};

/* --- pointer: tap and drag ------------------------------------------------------------ */

Game.prototype.onClick = function (e) {
  if (this.suppressClick) { this.suppressClick = false; e.preventDefault(); return; }
  const rackTile = e.target.closest("#rack .rack-tile");
  if (rackTile) {
    const index = Number(rackTile.dataset.index);
    this.selected = this.selected === index ? null : index;
    this.render();
    return;
  }
  const sq = e.target.closest("#board .sq");
  if (!sq || e.detail === 0) return;   // detail 0: keyboard activation, handled on keydown
  const row = Number(sq.dataset.row), col = Number(sq.dataset.col);
  const here = this.pendingAt(row, col);
  if (this.selected !== null && !this.isCommitted(sq)) {
    this.place(this.selected, row, col);
  } else if (this.selected === null && !here && this.isCommitted(sq) && this.root.dataset.defineUrl && window.htmx) {
    // A played tile: the meanings of the words through it (free, like the preview).
    window.htmx.ajax("GET", `${this.root.dataset.defineUrl}?row=${row}&col=${col}`, { target: "#definition", swap: "outerHTML" });
    this.cursor.row = row; this.cursor.col = col;
    this.renderCursor();
  } else if (here) {
    this.unplace(here);
    this.cursor.row = row; this.cursor.col = col;
    this.changed();
  } else {
    if (this.cursor.row === row && this.cursor.col === col && this.root.classList.contains("placing")) {
      this.toggleDirection();
    }
    this.cursor.row = row; this.cursor.col = col;
    this.root.classList.add("placing");
    this.renderCursor();
  }
};

Game.prototype.onPointerDown = function (e) {
  if (e.button !== 0) return;
  const rackTile = e.target.closest("#rack .rack-tile");
  const sq = rackTile ? null : e.target.closest("#board .sq.has-pending");
  if (!rackTile && !sq) return;
  let source;
  if (rackTile) {
    if (rackTile.classList.contains("is-used")) return;
    source = { rackIndex: Number(rackTile.dataset.index), el: rackTile, letter: null };
  } else {
    const p = this.pendingAt(Number(sq.dataset.row), Number(sq.dataset.col));
    if (!p) return;
    source = { rackIndex: p.rackIndex, el: sq, letter: p.blank ? p.letter : null, pending: p };
  }
  this.drag = { source, x: e.clientX, y: e.clientY, active: false, ghost: null, over: null, id: e.pointerId };
};

Game.prototype.onPointerMove = function (e) {
  const d = this.drag;
  if (!d || e.pointerId !== d.id) return;
  if (!d.active) {
    if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_THRESHOLD) return;
    d.active = true;
    const tile = this.rackTile(d.source.rackIndex);
    const letter = d.source.pending ? d.source.pending.letter : tile.dataset.letter;
    const blank = tile && tile.dataset.letter === "?";
    d.ghost = document.createElement("div");
    d.ghost.className = "drag-ghost";
    d.ghost.appendChild(this.tileElement(blank && !d.source.pending ? "" : letter, blank, false));
    document.body.appendChild(d.ghost);
    d.source.el.classList.add("dragging-source");
  }
  e.preventDefault();
  d.ghost.style.left = e.clientX + "px";
  d.ghost.style.top = e.clientY + "px";
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const target = under ? under.closest("#board .sq") : null;
  if (d.over && d.over !== target) d.over.classList.remove("drop-target");
  d.over = target && !this.isCommitted(target) ? target : null;
  if (d.over) d.over.classList.add("drop-target");
};

Game.prototype.onPointerUp = function (e) {
  const d = this.drag;
  if (!d || e.pointerId !== d.id) return;
  this.drag = null;
  if (!d.active) return;   // a tap: the click handler does the rest
  this.suppressClick = true;
  window.setTimeout(() => { this.suppressClick = false; }, 0);
  d.ghost.remove();
  d.source.el.classList.remove("dragging-source");
  if (d.over) d.over.classList.remove("drop-target");
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const sq = under ? under.closest("#board .sq") : null;
  if (sq && !this.isCommitted(sq)) {
    this.place(d.source.rackIndex, Number(sq.dataset.row), Number(sq.dataset.col), d.source.letter || undefined);
  } else if (d.source.pending && under && under.closest("#rack")) {
    this.unplace(d.source.pending);
    this.changed();
  } else {
    this.render();
  }
};

Game.prototype.onPointerCancel = function () {
  const d = this.drag;
  this.drag = null;
  if (d && d.ghost) {
    d.ghost.remove();
    d.source.el.classList.remove("dragging-source");
    if (d.over) d.over.classList.remove("drop-target");
  }
};

/* --- swap and resign dialogs ------------------------------------------------------------ */

Game.prototype.openSwap = function () {
  const dialog = this.swapDialog;
  const form = document.getElementById("exchange-form");
  if (!dialog || !form) return;
  if (this.pending.length) this.recall();
  const list = dialog.querySelector(".swap-tiles");
  list.textContent = "";
  this.rackTiles().forEach((t) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.letter = t.dataset.letter;
    b.setAttribute("aria-pressed", "false");
    b.setAttribute("aria-label", t.getAttribute("aria-label") || t.dataset.letter);
    b.appendChild(this.tileElement(t.dataset.letter === "?" ? "" : t.dataset.letter, t.dataset.letter === "?", false));
    list.appendChild(b);
  });
  const confirm = dialog.querySelector('[data-action="confirm-swap"]');
  const update = () => {
    const chosen = list.querySelectorAll('[aria-pressed="true"]').length;
    confirm.disabled = chosen === 0;
    const count = dialog.querySelector(".swap-count");
    if (count) count.textContent = fmt(this.strings.swap_count, { n: chosen });
  };
  list.onclick = (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true");
    update();
  };
  confirm.onclick = () => {
    const letters = Array.from(list.querySelectorAll('[aria-pressed="true"]')).map((b) => b.dataset.letter).join("");
    const current = document.getElementById("exchange-form");
    if (!letters || !current) return;
    current.querySelector('input[name="exchange"]').value = letters;
    dialog.close();
    current.requestSubmit();
  };
  update();
  dialog.showModal();
};

/* --- after swaps: lay tiles again, restore focus, title, announcements --------------- */

Game.prototype.rememberFocus = function (target) {
  const active = document.activeElement;
  if (!active || !target || !target.contains(active)) return;
  if (active.matches(".sq")) this.focusKey = { sq: [active.dataset.row, active.dataset.col] };
  else if (active.id) this.focusKey = { id: active.id };
  else if (active.dataset.focusKey) this.focusKey = { key: active.dataset.focusKey };
  else if (active.matches(".rack-tile")) this.focusKey = { rack: active.dataset.index };
};

Game.prototype.restoreFocus = function () {
  const k = this.focusKey;
  this.focusKey = null;
  if (!k || (document.activeElement && document.activeElement !== document.body)) return;
  let el = null;
  if (k.sq) el = this.square(k.sq[0], k.sq[1]);
  else if (k.id) el = document.getElementById(k.id);
  else if (k.key) el = document.querySelector(`[data-focus-key="${k.key}"]`);
  else if (k.rack) el = this.rackTile(k.rack);
  if (el && !el.disabled) el.focus({ preventScroll: true });
};

Game.prototype.queueRefresh = function () {
  if (this.refreshQueued) return;
  this.refreshQueued = true;
  window.setTimeout(() => { this.refreshQueued = false; this.refresh(false); }, 0);
};

Game.prototype.refresh = function (initial) {
  this.live.settle();
  this.applyRackOrder();
  const dropped = this.reconcile();
  this.render();
  this.restoreFocus();
  if (dropped) announce(this.strings.tiles_returned);
  this.syncMovePanel();
  this.updateTitle();
  if (!initial) this.notices.update(this.live.known);
  this.setupTabs();
  this.scrollLogs();
};

/** Decide whether the move panel's preview belongs to the tiles now on the board. */
Game.prototype.syncMovePanel = function () {
  const panel = document.getElementById("move-panel");
  if (!panel) return;
  const serial = this.serialise();
  const play = panel.querySelector(".play-button");
  if (!this.pending.length) {
    if (panel.dataset.hasPreview === "true") this.setPreviewState(this.strings.hint || "", "");
    else if (play) play.disabled = true;
    return;
  }
  // A refused play: keep its error in view (and the tiles where they are) until the
  // player changes something.
  if (panel.dataset.hasErrors === "true" && (panel.dataset.pending || "") === serial) {
    if (play) play.disabled = true;
    return;
  }
  const previewFor = panel.dataset.previewTiles || "";
  if (panel.dataset.hasPreview !== "true" || (previewFor && previewFor !== serial)) {
    this.requestPreview();
  }
};

Game.prototype.updateTitle = function () {
  const sb = document.getElementById("scoreboard");
  if (sb && sb.dataset.title) document.title = sb.dataset.title + " · Wordgame";
  // The tab's icon carries a red dot while it is this player's turn.
  const icon = document.querySelector('link[rel="icon"][type="image/svg+xml"]');
  if (icon && icon.dataset.turnHref) {
    if (!icon.dataset.plainHref) icon.dataset.plainHref = icon.getAttribute("href");
    const mine = sb && sb.dataset.myTurn === "true";
    icon.setAttribute("href", mine ? icon.dataset.turnHref : icon.dataset.plainHref);
  }
};

/* --- phone tabs for the move log and chat ------------------------------------------ */

Game.prototype.setupTabs = function () {
  const side = document.querySelector(".side-panels");
  const tabs = side ? side.querySelectorAll('[role="tab"]') : [];
  if (!side || !tabs.length) return;
  side.classList.add("has-tabs");
  const current = side.dataset.tab || tabs[0].dataset.panel;
  tabs.forEach((tab) => {
    const on = tab.dataset.panel === current;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    const panel = document.getElementById(tab.getAttribute("aria-controls"));
    if (panel) panel.classList.toggle("is-tab-hidden", !on);
  });
};

Game.prototype.selectTab = function (tab) {
  const side = document.querySelector(".side-panels");
  side.dataset.tab = tab.dataset.panel;
  const badge = tab.querySelector(".unread");
  if (badge) badge.remove();
  this.setupTabs();
};

Game.prototype.scrollLogs = function () {
  document.querySelectorAll("#move-log .moves, #chat .lines").forEach((list) => {
    list.scrollTop = list.scrollHeight;
  });
};

/* --- wiring -------------------------------------------------------------------------- */

Game.prototype.bind = function () {
  const root = this.root;
  root.addEventListener("click", (e) => {
    const action = e.target.closest("[data-action]");
    if (action && root.contains(action)) {
      const name = action.dataset.action;
      if (name === "recall") { this.recall(); return; }
      if (name === "shuffle") { this.shuffle(); return; }
      if (name === "swap") { this.openSwap(); return; }
      if (name === "close-dialog") { action.closest("dialog").close(); return; }
      if (name === "confirm-resign") {
        // The form posts (the button belongs to #resign-form); the dialog has done its job.
        const dialog = action.closest("dialog");
        window.setTimeout(() => { if (dialog && dialog.open) dialog.close(); }, 0);
        return;
      }
      if (name === "open-dialog") {
        const dialog = document.getElementById(action.dataset.dialog);
        if (dialog && typeof dialog.showModal === "function") {
          e.preventDefault();
          const menu = action.closest("details");
          if (menu) menu.open = false;
          dialog.showModal();
        }
        return;
      }
    }
    const tab = e.target.closest('.tabs [role="tab"]');
    if (tab) { this.selectTab(tab); return; }
    this.onClick(e);
  });
  root.addEventListener("keydown", (e) => {
    if (e.target.closest("#board")) { this.onBoardKey(e); return; }
    const tab = e.target.closest('.tabs [role="tab"]');
    if (tab && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      const tabs = Array.from(document.querySelectorAll('.tabs [role="tab"]'));
      const next = tabs[(tabs.indexOf(tab) + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
      this.selectTab(next);
      next.focus();
      return;
    }
    // From the rack, typed letters go to the board cursor too.
    if (e.target.closest("#rack") && e.key.length === 1 && /\p{L}/u.test(e.key) && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      this.typeLetter(e.key);
    } else if (e.target.closest("#rack") && e.key === "Backspace") {
      e.preventDefault();
      this.backspace();
    }
  });
  root.addEventListener("focusin", (e) => {
    if (e.target.closest("#board .sq")) { this.root.classList.add("placing"); this.renderCursor(); }
  });
  root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
  window.addEventListener("pointermove", (e) => this.onPointerMove(e), { passive: false });
  window.addEventListener("pointerup", (e) => this.onPointerUp(e));
  window.addEventListener("pointercancel", () => this.onPointerCancel());
  // Long-press on a tile must not open the context menu or start a native drag.
  root.addEventListener("contextmenu", (e) => { if (e.target.closest(".rack-tile, .sq.has-pending")) e.preventDefault(); });
  root.addEventListener("dragstart", (e) => e.preventDefault());

  // Live (constructed first) has already said whether each fragment or answer is
  // swapped in; keep focus only where one is.
  document.body.addEventListener("htmx:oobBeforeSwap", (e) => {
    if (e.detail.shouldSwap) this.rememberFocus(e.detail.target || e.target);
  });
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    if (e.detail.shouldSwap) this.rememberFocus(e.detail.target);
  });
  ["htmx:oobAfterSwap", "htmx:afterSwap", "htmx:wsAfterMessage", "htmx:afterSettle"].forEach((name) => {
    document.body.addEventListener(name, () => this.queueRefresh());
  });
  // Chat: clear the input once the line was accepted.
  document.body.addEventListener("htmx:afterRequest", (e) => {
    const form = e.detail.elt;
    if (form && form.matches && form.matches(".chat-form") && e.detail.successful) form.reset();
  });
  document.body.addEventListener("htmx:responseError", (e) => {
    const xhr = e.detail.xhr;
    announce(xhr && xhr.responseText && xhr.responseText.length < 300 ? xhr.responseText : this.strings.request_failed);
  });

  if (this.blankPicker) {
    this.blankPicker.addEventListener("click", (e) => {
      const b = e.target.closest("button[value]");
      if (b) { e.preventDefault(); this.blankPicker.close(b.value); }
    });
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) this.updateTitle(); });
};

function init() {
  const root = document.getElementById("game");
  if (root && !root.wordgame) root.wordgame = new Game(root);
  // On the game page notices float over the board (app.css): let them go after a while.
  if (root) {
    document.querySelectorAll("#messages .message").forEach((m) => window.setTimeout(() => m.remove(), 8000));
  }
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
