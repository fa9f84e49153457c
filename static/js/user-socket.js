/*
 * The header's own WebSocket (/ws/user/: the coin balance, accounts/_coin_balance.html).
 * htmx's ws extension fires its events on the element that holds the connection and they
 * bubble to <body>, where a page may listen for its own socket: the game page marks itself
 * live, or shows "connection lost", from them. Keep this socket's events to itself, so a
 * page hears only its own socket.
 */
(function () {
  "use strict";
  var EVENTS = ["htmx:wsConnecting", "htmx:wsOpen", "htmx:wsClose", "htmx:wsError",
                "htmx:wsBeforeMessage", "htmx:wsAfterMessage"];
  function isolate() {
    var socket = document.getElementById("user-socket");
    if (!socket) return;
    EVENTS.forEach(function (name) {
      socket.addEventListener(name, function (event) { event.stopPropagation(); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", isolate);
  else isolate();
})();
