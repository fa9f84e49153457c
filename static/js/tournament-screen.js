// The screen for the room: show one division at a time, the next every few seconds.
// Each slide keeps its own WebSocket, so a hidden division is up to date when it shows.
(function () {
  "use strict";
  function start() {
    var screen = document.getElementById("screen");
    var slides = Array.prototype.slice.call(document.querySelectorAll("[data-slide]"));
    if (!screen || slides.length < 2) return;
    var seconds = Number(screen.getAttribute("data-cycle-seconds")) || 20;
    var shown = 0;
    window.setInterval(function () {
      slides[shown].hidden = true;
      shown = (shown + 1) % slides.length;
      slides[shown].hidden = false;
    }, seconds * 1000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
