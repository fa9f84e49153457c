/* Small behaviours of the game pages that need no game state: the new-game form (lobby,
 * new game), the replay's arrow keys (replay, analysis) and times shown in the viewer's
 * own time zone (the chat). Kept out of app.js so those pages load only this.
 *
 * An ES module, for its own scope; deferred like the classic scripts, and loaded before
 * app.js on the game page, so times are localised before the game is set up.
 */

/* ------------------------------------------------------------------------------------
 * Lobby: the new-game form shows only the fields of the chosen mode.
 * ---------------------------------------------------------------------------------- */
function syncNewGameForm() {
  document.querySelectorAll(".new-game-form").forEach((form) => {
    const checked = form.querySelector('input[name="mode"]:checked');
    const mode = checked ? checked.value : "";
    form.querySelectorAll("[data-mode-only]").forEach((el) => {
      el.hidden = mode !== "" && el.dataset.modeOnly !== mode;
    });
  });
}
document.addEventListener("change", (e) => {
  if (e.target.matches('.new-game-form input[name="mode"]')) syncNewGameForm();
});

/* ------------------------------------------------------------------------------------
 * Replay: arrow keys step through the moves.
 * ---------------------------------------------------------------------------------- */
// Presses made while a step is loading are counted, not lost: clicking the same old
// "next" link twice asked for the same move twice, so two quick presses moved one step.
let replayQueued = 0;  // arrow presses not shown yet: + forward, - back
let replayBusy = false;
function replayStep() {
  if (replayBusy || replayQueued === 0) return;
  const rel = replayQueued > 0 ? "next" : "prev";
  const link = document.querySelector(`#replay [data-step="${rel}"]:not([aria-disabled="true"])`);
  if (!link) { replayQueued = 0; return; }
  replayQueued += replayQueued > 0 ? -1 : 1;
  replayBusy = true;
  link.click();
}
document.addEventListener("keydown", (e) => {
  if (!document.getElementById("replay") || e.target.closest("input, textarea, select")) return;
  const rel = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
  if (!rel) return;
  e.preventDefault();
  if (rel === "prev" || rel === "next") {
    replayQueued += rel === "next" ? 1 : -1;
    replayStep();
    return;
  }
  replayQueued = 0;
  const link = document.querySelector(`#replay [data-step="${rel}"]:not([aria-disabled="true"])`);
  if (link) link.click();
});
document.addEventListener("htmx:afterSettle", () => {
  if (replayBusy && document.getElementById("replay")) { replayBusy = false; replayStep(); }
});
["htmx:responseError", "htmx:sendError"].forEach((name) => document.addEventListener(name, () => {
  replayBusy = false;
  replayQueued = 0;
}));

/* ------------------------------------------------------------------------------------
 * Times in the viewer's own time zone and language (the server renders UTC).
 * ---------------------------------------------------------------------------------- */
function localiseTimes() {
  const lang = document.documentElement.lang || undefined;
  document.querySelectorAll("time[data-local-time]").forEach((el) => {
    const when = new Date(el.getAttribute("datetime"));
    if (isNaN(when)) return;
    const opts = el.dataset.localTime === "time"
      ? { hour: "2-digit", minute: "2-digit" }
      : { dateStyle: "medium", timeStyle: "short" };
    el.textContent = new Intl.DateTimeFormat(lang, opts).format(when);
    el.title = new Intl.DateTimeFormat(lang, { dateStyle: "full", timeStyle: "short" }).format(when);
  });
}
document.addEventListener("htmx:afterSettle", localiseTimes);
document.addEventListener("htmx:wsAfterMessage", localiseTimes);

function init() {
  syncNewGameForm();
  localiseTimes();
}
document.addEventListener("htmx:afterSettle", syncNewGameForm);
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
