/*
 * The notification settings' "Turn on push notifications on this device": registers the
 * service worker (/sw.js), subscribes with the site's VAPID public key and hands the
 * subscription to the server, which checks it like any address it will call.
 */
(function () {
  "use strict";
  function key(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function start() {
    var button = document.getElementById("push-subscribe");
    var status = document.getElementById("push-status");
    if (!button) return;
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      status.textContent = button.dataset.unsupported;
      button.hidden = true;
      return;
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") throw new Error(button.dataset.denied);
        return navigator.serviceWorker.register("/sw.js", { scope: "/" });
      }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(button.dataset.key) });
      }).then(function (subscription) {
        var token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
        return fetch(button.dataset.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRFToken": token },
          body: JSON.stringify(subscription.toJSON()),
          credentials: "same-origin",
        });
      }).then(function (response) {
        if (!response.ok) return response.text().then(function (text) { throw new Error(text); });
        window.location.reload();
      }).catch(function (error) {
        status.textContent = error.message;
        button.disabled = false;
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
