/*
 * Reconnect a live socket the server closed because its channel layer lost the socket's
 * subscriptions (Redis restarted): close code 4012 (accounts/livesocket.py). htmx's ws
 * extension reconnects by itself only on 1006, 1011, 1012 and 1013, and Daphne lets an
 * application close only with 1000 or 3000-4999, so the server cannot send 1012 itself.
 * The server sends a full snapshot on every connect, so reconnecting is all it takes.
 * Listens on the document in the capture phase: user-socket.js keeps its socket's events
 * from bubbling.
 */
(function () {
  "use strict";
  var SERVICE_RESTART = 4012;
  document.addEventListener("htmx:wsClose", function (e) {
    var detail = e.detail || {};
    var closed = detail.event || {};
    var socket = detail.socketWrapper;
    if (closed.code !== SERVICE_RESTART || !socket || !socket.reconnect) return;
    // Spread the reconnections of every open page of a restarted server over a second.
    setTimeout(function () {
      if (document.body.contains(e.target)) socket.reconnect();
    }, 250 + Math.random() * 1000);
  }, true);
})();
