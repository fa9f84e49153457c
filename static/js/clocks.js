/* Live games' clocks on the game page: both players' clocks ticking from the server's
 * figures. The server renders each clock's time left at the moment it rendered the
 * scoreboard (`data-clock-ms`) and whether it runs (`data-running`); every push, reload,
 * reconnect (the socket's snapshot) or answer replaces the scoreboard, and with it these
 * figures, so the page is never more than a render's trip away from the truth. Between
 * two renders the running clock counts down from the moment its element arrived
 * (performance.now(): the device's own clock may be wrong, its intervals are not). The
 * server decides the flag; this only shows it.
 */

const arrived = new WeakMap();

/** "m:ss", "-m:ss" in overtime (rounded up while counting down, as clocks do). */
export function clockText(ms) {
  const negative = ms < 0;
  const seconds = negative ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  return negative ? `-${text}` : text;
}

/** The time `el` shows now (ms), from its server figure and when it arrived. */
export function leftNow(el, now = performance.now()) {
  const base = Number(el.dataset.clockMs);
  if (el.dataset.running !== "true") return base;
  if (!arrived.has(el)) arrived.set(el, now);
  const floor = -Number(el.dataset.overtimeMs || 0);
  return Math.max(floor, base - (now - arrived.get(el)));
}

function tick() {
  for (const el of document.querySelectorAll(".clock[data-clock-ms]")) {
    const ms = leftNow(el);
    const face = el.querySelector(".clock-face") || el;
    const text = clockText(ms);
    if (face.textContent !== text) face.textContent = text;
    el.classList.toggle("overtime", ms < 0);
    el.classList.toggle("low", ms >= 0 && ms < 30000);
    el.classList.toggle("flagged", el.dataset.running === "true" && ms <= -Number(el.dataset.overtimeMs || 0));
  }
}

tick();
window.setInterval(tick, 200);
