/*
 * Wordgame's service worker (served at /sw.js, scope /): shows the Web Push notifications
 * the server sends (title and body already in the player's language) with one tag per
 * game, so five chat lines of a game are one notification, and opens or focuses the
 * game's page when one is tapped.
 */
"use strict";

var OFFLINE = "/offline/";
var CACHE = "wordgame-offline-1";

self.addEventListener("install", function (event) {
  // The friendly page for when the network is gone, kept from the start.
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.add(OFFLINE); }));
  self.skipWaiting();
});

self.addEventListener("fetch", function (event) {
  // Pages only: everything else goes to the network as if there were no worker.
  if (event.request.mode !== "navigate") return;
  event.respondWith(fetch(event.request).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(OFFLINE); });
  }));
});
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var title = data.title || "Wordgame";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || "wordgame",
    renotify: true,
    data: { url: data.url || "/" },
    icon: "{{ icon }}",
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (pages) {
    for (var i = 0; i < pages.length; i++) {
      if (pages[i].url === target.href && "focus" in pages[i]) return pages[i].focus();
    }
    for (var j = 0; j < pages.length; j++) {
      if ("navigate" in pages[j]) {
        return pages[j].navigate(target.href).then(function (page) { return page && page.focus ? page.focus() : page; });
      }
    }
    return self.clients.openWindow(target.href);
  }));
});
