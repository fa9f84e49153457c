/* What the game page tells the player about changes they did not make themselves: the
 * opponent's move read out ("ben played QUIZ at H8 across for 34. Your turn."), the end of
 * the game, a chat line from someone else, briefly highlighted ("flash") and, on a phone,
 * counted on the chat tab; and a system notification when it becomes the player's turn
 * while the page is hidden. Everything here reads the swapped-in partials (the server's
 * `data-announce`, `data-my-turn`, the banner) and decides nothing about the game.
 */

/** Say `text` in the page's polite live region (#live-announcer). */
export function announce(text) {
  const live = document.getElementById("live-announcer");
  if (!live || !text) return;
  // Clear first so repeating the same sentence is announced again.
  live.textContent = "";
  window.setTimeout(() => { live.textContent = text; }, 60);
}

function flash(el) {
  if (!el) return;
  el.classList.remove("flash");
  void el.offsetWidth;   // restart the animation
  el.classList.add("flash");
  window.setTimeout(() => el.classList.remove("flash"), 1700);
}

function isMyTurn() {
  const sb = document.getElementById("scoreboard");
  return !!sb && sb.dataset.myTurn === "true";
}

function countChat() {
  return document.querySelectorAll("#chat .line").length;
}

export class Notices {
  /**
   * @param {HTMLElement} root  #game (its data-game-id tags the notification).
   * @param {object} strings  the page's translated strings (#game-strings).
   * @param {number|null} viewerSeat  the viewer's seat; their own moves are not read out.
   * @param {number} version  the version the page shows at load: nothing before it is new.
   */
  constructor(root, strings, viewerSeat, version) {
    this.root = root;
    this.strings = strings;
    this.viewerSeat = viewerSeat;
    this.seenVersion = version;
    this.overAnnounced = !!document.querySelector("#game-over .banner");
    this.wasMyTurn = isMyTurn();
    this.chatCount = countChat();
    this.setupNotifyButton();
  }

  /** After the page changed (app.js's refresh): tell what is new since the last call. */
  update(version) {
    const myTurn = isMyTurn();
    if (version > this.seenVersion) {
      this.seenVersion = version;
      const line = document.querySelector("#move-log .move:last-child");
      const text = line ? line.dataset.announce : "";
      const lastSeat = line ? line.dataset.seat : "";
      if (text && String(lastSeat) !== String(this.viewerSeat)) {
        announce(myTurn && this.strings.your_turn_sentence ? text + " " + this.strings.your_turn_sentence : text);
        document.querySelectorAll("#board .sq.last-move").forEach((sq) => flash(sq));
        flash(document.querySelector("#move-log .move:last-child"));
      }
      document.querySelectorAll("#scoreboard .player").forEach((p) => flash(p));
    }
    const banner = document.querySelector("#game-over .banner h2");
    if (banner && !this.overAnnounced) {
      this.overAnnounced = true;
      announce(banner.textContent.trim());
      flash(banner.parentElement);
    }
    if (myTurn && !this.wasMyTurn) this.notify();
    this.wasMyTurn = myTurn;
    this.syncNotifyButton();
    // Chat lines carry no version: count them to see a new one.
    const chatCount = countChat();
    if (chatCount > this.chatCount) {
      const last = document.querySelector("#chat .line:last-child");
      if (last && !last.classList.contains("mine")) {
        announce(last.textContent.trim());
        flash(last);
        this.markUnread();
      }
    }
    this.chatCount = chatCount;
  }

  notify() {
    if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
    try {
      const sb = document.getElementById("scoreboard");
      const n = new Notification(this.strings.your_turn || "", {
        body: sb ? sb.dataset.title : "", tag: "wordgame-" + this.root.dataset.gameId,
      });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (err) { /* some mobile browsers only notify from a service worker */ }
  }

  /** "Notify me when it is my turn" while the game is on; gone once it is over. */
  syncNotifyButton() {
    const button = document.querySelector('[data-action="notify"]');
    const state = document.querySelector(".notify-state");
    const supported = "Notification" in window;
    const over = !!document.querySelector("#game-over .banner");
    if (button) button.hidden = over || !supported || Notification.permission !== "default";
    if (state) state.hidden = over || !supported || Notification.permission !== "granted";
  }

  setupNotifyButton() {
    const button = document.querySelector('[data-action="notify"]');
    if (!button) return;
    button.addEventListener("click", () => {
      Notification.requestPermission().then(() => this.syncNotifyButton());
    });
    this.syncNotifyButton();
  }

  /** On a phone the chat is a tab: count the lines that came in while another tab shows. */
  markUnread() {
    const tab = document.querySelector('.tabs [data-panel="chat"]');
    if (!tab || tab.getAttribute("aria-selected") === "true" || window.matchMedia("(min-width: 900px)").matches) return;
    let badge = tab.querySelector(".unread");
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "unread";
      badge.textContent = "0";
      tab.appendChild(badge);
    }
    badge.textContent = String(Number(badge.textContent) + 1);
  }
}
