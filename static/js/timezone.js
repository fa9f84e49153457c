/*
 * Offer the browser's time zone: an empty time zone field (the sign-up's hidden one, the
 * notification settings' list) takes the zone this device is set to, if the site knows it.
 */
(function () {
  "use strict";
  function fill() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
    if (!zone) return;
    document.querySelectorAll('[name="time_zone"]').forEach(function (field) {
      if (field.value) return;
      if (field.tagName === "SELECT" && !field.querySelector('option[value="' + CSS.escape(zone) + '"]')) return;
      field.value = zone;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fill);
  else fill();
})();
