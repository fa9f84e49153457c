/* The game page's side of the live protocol (docs/games-ui-contract.md, section 5).
 *
 * The server sends HTML only: snapshots and deltas over the game's WebSocket (swapped in by
 * htmx's ws extension) and the answers to the player's own actions over HTTP (swapped in by
 * htmx). What the page must keep for itself is which version of the game it shows, because
 * a push and an HTTP answer may arrive in either order, a frame may be lost, and a socket
 * may drop:
 *
 * - `known`: the game version the page shows. Every versioned fragment's root carries
 *   `data-version`; a fragment older than `known` is never swapped in.
 * - Frame heads: every live frame starts with #game-sync. A delta names the version it
 *   applies to (`data-base`); a snapshot leaves it empty. A delta the page already shows is
 *   dropped; one whose base is not `known` is dropped too, and the page asks for a snapshot.
 *   The answer to the player's own action is checked the same way (it is a delta when the
 *   action moved the game on by exactly one version from what the page showed).
 * - `wanted`: the newest version a dropped delta announced. A resync request is sent at
 *   most once per RESYNC_RETRY_MS, and again after that while the page is still behind (the
 *   server answers one resync a second per socket, so a second request sent sooner would be
 *   ignored and a lost answer would leave the page behind for good).
 * - Chat lines are not part of the game's state: their frames have no #game-sync head and
 *   no version, and pass untouched.
 * - Reconnect: the ws extension reconnects by itself, and the server sends a full snapshot
 *   on every connect, so nothing is replayed here; the page only shows that it is offline.
 *
 * One instance per game page. It listens on <body>, where the ws extension's events bubble
 * (user-socket.js keeps the header's own socket's events from reaching it). Construct it
 * before adding listeners that read its decisions (`e.detail.shouldSwap` on
 * htmx:oobBeforeSwap and htmx:beforeSwap): listeners on one element run in the order they
 * were added.
 */

const RESYNC_RETRY_MS = 1500;    // ms before asking again while still behind

/** The head of a live frame or an answer: {version, base} when it starts with #game-sync
 * (base is null in a snapshot), else null (a chat line, a preview, a refusal). */
function frameHead(message) {
  const head = String(message || "").slice(0, 400);
  if (!/^\s*<div id="game-sync"/.test(head)) return null;
  const version = /data-version="(\d+)"/.exec(head);
  const base = /data-base="(\d*)"/.exec(head);
  return {
    version: version ? Number(version[1]) : 0,
    base: base && base[1] !== "" ? Number(base[1]) : null,
  };
}

export class Live {
  /**
   * @param {HTMLElement} root  the game page's #game element; gets `data-live`.
   * @param {object} options
   * @param {string} [options.lastMove]  the ", last move" suffix of a square's label, taken
   *   off with the highlight.
   * @param {() => void} [options.onReconnect]  called when the socket is back after a drop.
   */
  constructor(root, { lastMove = "", onReconnect = () => {} } = {}) {
    this.root = root;
    this.lastMove = lastMove;
    this.onReconnect = onReconnect;
    this.known = this.initialVersion();  // the game version the page shows
    this.wanted = 0;                     // a version we asked a snapshot for
    this.resyncTimer = null;
    this.socket = null;                  // the ws extension's socket wrapper, once open
    this.listen();
  }

  initialVersion() {
    const sync = document.getElementById("game-sync");
    const board = document.getElementById("board");
    return Number((sync && sync.dataset.version) || (board && board.dataset.version) || 0);
  }

  listen() {
    const body = document.body;
    body.addEventListener("htmx:wsOpen", (e) => { this.socket = e.detail.socketWrapper || this.socket; });
    body.addEventListener("htmx:wsBeforeMessage", (e) => this.onFrame(e));
    body.addEventListener("htmx:beforeSwap", (e) => this.onAnswer(e));
    body.addEventListener("htmx:oobBeforeSwap", (e) => this.onFragment(e));
    body.addEventListener("htmx:wsAfterMessage", () => this.afterFrame());
    body.addEventListener("htmx:afterSwap", () => this.afterFrame());
    body.addEventListener("htmx:configRequest", (e) => this.onConfigRequest(e));
    // Connection state: data-live on the root (styles and tests read it) and a notice
    // while the socket is down.
    body.addEventListener("htmx:wsAfterMessage", () => this.setLive(true));
    body.addEventListener("htmx:wsClose", () => this.setLive(false));
    body.addEventListener("htmx:wsAfterMessage", () => this.reloadIfStarted());
  }

  /** Before the ws extension swaps a frame: drop a delta the page already shows, and ask
   * for a snapshot instead of applying a delta on top of the wrong version. The first
   * frame may come before htmx:wsOpen reached us, so the socket is taken from it too. */
  onFrame(e) {
    this.socket = e.detail.socketWrapper || this.socket;
    const head = frameHead(e.detail.message);
    if (!head || head.base === null) return;  // a snapshot or a chat line
    if (head.version <= this.known) { e.preventDefault(); return; }
    if (head.base !== this.known) {
      e.preventDefault();
      this.requestResync(head.version);
    }
  }

  /** The answer to the player's own action: the same checks as for a live frame (the push
   * of the same version may have come first, or a later one). */
  onAnswer(e) {
    const head = frameHead(e.detail.serverResponse);
    if (!head || head.base === null) return;
    if (head.version <= this.known) { e.detail.shouldSwap = false; return; }
    if (head.base !== this.known) {
      e.detail.shouldSwap = false;
      this.requestResync(head.version);
    }
  }

  /** Any fragment (pushed or answered) older than what the page shows is not swapped; a
   * newer one moves `known` on. The chat does not change the version. */
  onFragment(e) {
    if (e.detail.target && e.detail.target.id === "chat") return;
    const fragment = e.detail.fragment;
    const root = fragment && (fragment.firstElementChild || null);
    const version = root && root.dataset ? root.dataset.version : undefined;
    if (version === undefined || version === "") return;
    if (Number(version) < this.known) { e.detail.shouldSwap = false; return; }
    this.known = Number(version);
  }

  /** After a delta the board and the log were patched, not replaced: say which version
   * they show now. */
  afterFrame() {
    ["board", "move-log"].forEach((id) => {
      const el = document.getElementById(id);
      if (el && Number(el.dataset.version || 0) < this.known) el.dataset.version = String(this.known);
    });
  }

  requestResync(version) {
    this.wanted = Math.max(this.wanted, version);
    if (!this.socket || this.resyncTimer) return;
    this.socket.send(JSON.stringify({ type: "resync", version: this.known }));
    this.resyncTimer = window.setTimeout(() => {
      this.resyncTimer = null;
      if (this.known < this.wanted) this.requestResync(this.wanted);
    }, RESYNC_RETRY_MS);
  }

  /** Action forms send the version and action_id of the move panel on screen: the version
   * the player acted on, and one id per render, so a double click or a retry repeats it. */
  onConfigRequest(e) {
    const form = e.detail.elt;
    const panel = document.getElementById("move-panel");
    if (!form || !panel || !form.closest || !form.closest(".action-forms") || form.id === "preview-form") return;
    if (panel.dataset.version) e.detail.parameters.version = panel.dataset.version;
    if (panel.dataset.actionId) e.detail.parameters.action_id = panel.dataset.actionId;
  }

  /** To be called after every swap has settled (app.js's refresh) and once at start. */
  settle() {
    this.syncHighlight();
  }

  /** A delta patches squares without re-rendering the others: take the last-move
   * highlight off squares that are no longer in the last move (#game-sync's data-last). */
  syncHighlight() {
    const sync = document.getElementById("game-sync");
    if (!sync) return;
    const last = new Set((sync.dataset.last || "").split(" ").filter(Boolean));
    const suffix = ", " + this.lastMove;
    document.querySelectorAll("#board .sq.last-move").forEach((sq) => {
      if (last.has(`${sq.dataset.row}-${sq.dataset.col}`)) return;
      sq.classList.remove("last-move");
      const label = sq.getAttribute("aria-label") || "";
      if (this.lastMove && label.endsWith(suffix)) sq.setAttribute("aria-label", label.slice(0, -suffix.length));
    });
  }

  setLive(live) {
    const was = this.root.dataset.live;
    this.root.dataset.live = live ? "true" : "false";
    const note = document.getElementById("connection-note");
    if (note) note.hidden = live;
    if (was === "false" && live) this.onReconnect();
  }

  /** A waiting game (invitation or open seek) has just started: the page was built
   * without a rack, chat or action bar, so load it again rather than patch it. */
  reloadIfStarted() {
    const sb = document.getElementById("scoreboard");
    const before = this.root.dataset.status;
    if (sb && (before === "open" || before === "invited") && sb.dataset.status === "active") {
      window.location.reload();
    }
  }
}
