/*
 * Register the site's service worker (/sw.js): the installed app's offline page, and the
 * push notifications a player turns on in the notification settings.
 */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  });
})();
