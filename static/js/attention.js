/*
 * The phone asks for attention: when the table asks something of this player (a check to draw or
 * choose, a fight to declare or lock in, an exchange to choose), the phone vibrates where the
 * browser allows it, the tab title is marked, and the first such control is scrolled into view.
 * A toggle keeps the screen awake during the session (Screen Wake Lock API, where supported); the
 * choice is kept for the tab (sessionStorage), so a reload (the page's own, after a deploy:
 * live-regions.js) asks for the lock again.
 * Loaded by play/phone.html; no inline script (CSP).
 */
(function () {
  "use strict";
  var ASKS = "#checks button.draw, #checks .pcard-button, #combat form.declare, #combat button.draw, #combat label.pick, #checks form.exchange-choose";
  var baseTitle = document.title;
  var asked = 0;
  var seen = [];

  function count() { return document.querySelectorAll(ASKS).length; }

  // Each control asked for, by what it is (its test id, else its form's address): one that was
  // not there before is a new thing asked, even when another went (a declaration made on the
  // phone gives way to its draw button: the count stayed, and the button stayed off screen).
  function keys() {
    return Array.prototype.map.call(document.querySelectorAll(ASKS), function (el) {
      var form = el.closest("form");
      return el.getAttribute("data-testid") || (form && form.getAttribute("action")) || el.tagName;
    });
  }

  // What is asked, centred when it fits in half the screen (a check's cards); a taller one (a
  // fight's declaration, which centring showed from its middle) from the top of its region (the
  // fight's heading and who is to declare), or from its own top if that is far below.
  function reveal(what) {
    var box = what.getBoundingClientRect();
    if (box.height <= window.innerHeight / 2) {
      what.scrollIntoView({ block: "center", behavior: "smooth" });
      return;
    }
    var region = what.closest("section");
    var near = region && box.top - region.getBoundingClientRect().top < window.innerHeight / 3;
    (near ? region : what).scrollIntoView({ block: "start", behavior: "smooth" });
  }

  function update() {
    var now = count();
    var current = keys();
    var fresh = current.findIndex(function (key) { return seen.indexOf(key) < 0; });
    if (now > asked && navigator.vibrate) navigator.vibrate([120, 60, 120]);
    if (fresh >= 0 && document.visibilityState === "visible") {
      var what = document.querySelectorAll(ASKS)[fresh];
      var box = what.getBoundingClientRect();
      // brought into view when it is off screen, or when the table asks something more
      if (now > asked || box.top < 0 || box.bottom > window.innerHeight) reveal(now > asked ? document.querySelector(ASKS) : what);
    }
    asked = now;
    seen = current;
    document.title = now ? "● " + baseTitle : baseTitle;
  }

  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("DOMContentLoaded", function () {
    asked = count();
    seen = keys();
    document.title = asked ? "● " + baseTitle : baseTitle;
    var toggle = document.getElementById("wake-lock");
    if (!toggle) return;
    if (!("wakeLock" in navigator)) { toggle.hidden = true; return; }
    toggle.hidden = false;
    var lock = null, KEPT = "frontera-wake-lock";
    function remember(on) {
      try {
        if (on) window.sessionStorage.setItem(KEPT, "on"); else window.sessionStorage.removeItem(KEPT);
      } catch (e) { /* no storage: the choice lasts as long as the page */ }
    }
    function request() {
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        toggle.setAttribute("aria-pressed", "true");
        remember(true);
        lock.addEventListener("release", function () { if (lock === l) toggle.setAttribute("aria-pressed", "false"); });
      }).catch(function () { toggle.setAttribute("aria-pressed", "false"); });
    }
    toggle.addEventListener("click", function () {
      if (toggle.getAttribute("aria-pressed") === "true" && lock) {
        var l = lock; lock = null; l.release(); toggle.setAttribute("aria-pressed", "false"); remember(false);
      } else request();
    });
    try {
      if (window.sessionStorage.getItem(KEPT) === "on") request();
    } catch (e) { /* no storage */ }
    document.addEventListener("visibilitychange", function () {  // the lock ends when the page hides
      if (document.visibilityState === "visible" && toggle.getAttribute("aria-pressed") === "true" && !lock) request();
    });
  });
})();
