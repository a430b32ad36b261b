/*
 * Live regions that never swallow a tap.
 *
 * A live region is an element refreshed by the SSE stream (hx-trigger="sse:changed", replaced
 * with hx-swap="outerHTML"). Replacing it while a finger is on one of its buttons, or while a
 * request started from it (or aimed at it) is on its way, loses that tap or that answer: htmx drops
 * the request of an element it removed, and a response swapped into a removed region shows
 * nothing. So a region's live refresh waits while
 *   - a pointer is down inside it (until shortly after it lifts, so the click comes first), or
 *   - a request from inside it, or whose target is it or inside it, is in flight;
 *   - a form inside it has been edited and not yet sent (a half-filled combat declaration), for
 *     up to DIRTY_MS after the last edit;
 * and once the region is free again it refreshes once, however many pushes came meanwhile -
 * unless a request whose answer replaces the whole region was sent after those pushes: that
 * answer is already up to date, and refreshing would wipe it (with its error message, say).
 * A refresh already on its way when the finger goes down is not swapped in; it is asked again
 * once the region is free. Regions are known by their id, which survives their replacement.
 *
 * Loaded once by templates/base.html, after htmx; no inline script (CSP).
 */
(function () {
  "use strict";

  var RELEASE_MS = 250;      // after the finger lifts: the click and the request it starts come first
  var FLUSH_MS = 30;         // after a request ends: let its own swap happen first
  var POINTER_MAX_MS = 10000; // a pointer "down" longer than this is not a tap: stop waiting for it
  var DIRTY_MS = 45000;       // an edited form holds its region this long after its last edit

  var regions = {};  // key -> {pointers: count, requests: Set of xhr, pending: event type or null}
  var pointers = {}; // pointerId -> [keys]

  function isRegion(elt) {
    return elt && elt.nodeType === 1 && /(^|[\s,])sse:/.test(elt.getAttribute("hx-trigger") || "");
  }

  function keyOf(region) {
    return region.id ? "#" + region.id : null;
  }

  function regionKeys(elt) {
    var keys = [];
    for (var node = elt; node && node.nodeType === 1; node = node.parentElement) {
      if (isRegion(node)) {
        var key = keyOf(node);
        if (key) keys.push(key);
      }
    }
    return keys;
  }

  function entry(key) {
    if (!regions[key]) regions[key] = { pointers: 0, requests: new Set(), pending: null, editedAt: 0 };
    return regions[key];
  }

  function busy(key) {
    var e = regions[key];
    return !!e && (e.pointers > 0 || e.requests.size > 0 || Date.now() - e.editedAt < DIRTY_MS);
  }

  function liveEventType(evt) {
    return evt && typeof evt.type === "string" && evt.type.indexOf("sse:") === 0 ? evt.type : null;
  }

  function flush(key) {
    var e = regions[key];
    if (!e || busy(key) || !e.pending) return;
    var type = e.pending;
    e.pending = null;
    var region = document.getElementById(key.slice(1));
    if (region && isRegion(region) && window.htmx) window.htmx.trigger(region, type);
  }

  function flushLater(keys, delay) {
    window.setTimeout(function () { keys.forEach(flush); }, delay);
  }

  // --- the finger ------------------------------------------------------------------------------
  function release(pointerId) {
    var keys = pointers[pointerId];
    if (!keys) return;
    delete pointers[pointerId];
    keys.forEach(function (key) { entry(key).pointers = Math.max(0, entry(key).pointers - 1); });
    keys.forEach(flush);
  }

  document.addEventListener("pointerdown", function (evt) {
    release(evt.pointerId); // a lost pointerup of the same pointer
    var keys = regionKeys(evt.target);
    if (!keys.length) return;
    pointers[evt.pointerId] = keys;
    keys.forEach(function (key) { entry(key).pointers += 1; });
    window.setTimeout(function () { if (pointers[evt.pointerId] === keys) release(evt.pointerId); }, POINTER_MAX_MS);
  }, true);

  function lift(evt) {
    var keys = pointers[evt.pointerId];
    if (!keys) return;
    window.setTimeout(function () { if (pointers[evt.pointerId] === keys) release(evt.pointerId); }, RELEASE_MS);
  }
  document.addEventListener("pointerup", lift, true);
  document.addEventListener("pointercancel", lift, true);

  // --- a form being filled in ----------------------------------------------------------------
  function edited(evt) {
    var form = evt.target && evt.target.form;
    if (!form) return;
    var keys = regionKeys(form);
    keys.forEach(function (key) { entry(key).editedAt = Date.now(); });
    window.setTimeout(function () { keys.forEach(flush); }, DIRTY_MS + 50);
  }
  document.addEventListener("input", edited, true);
  document.addEventListener("change", edited, true);

  // Sending the form ends the edit: its own request holds the region until the answer is in.
  function sent(elt) {
    var form = elt && (elt.tagName === "FORM" ? elt : elt.form || (elt.closest && elt.closest("form")));
    if (!form) return;
    regionKeys(form).forEach(function (key) { entry(key).editedAt = 0; });
  }
  document.addEventListener("submit", function (evt) { sent(evt.target); }, true);

  // --- requests --------------------------------------------------------------------------------
  document.addEventListener("htmx:beforeSend", function (evt) {
    var detail = evt.detail || {};
    var config = detail.requestConfig || {};
    if (liveEventType(config.triggeringEvent) && isRegion(detail.elt)) return; // a refresh itself
    sent(detail.elt);
    // A request whose answer replaces a whole region brings it up to date: a refresh held back
    // until now is dropped (it would only wipe the answer, an error message say). A push that
    // comes while the request is on its way is held again and refreshes the region afterwards.
    if (isRegion(detail.target) && keyOf(detail.target)) entry(keyOf(detail.target)).pending = null;
    var xhr = detail.xhr;
    if (!xhr) return;
    var keys = regionKeys(detail.elt);
    regionKeys(detail.target).forEach(function (key) { if (keys.indexOf(key) < 0) keys.push(key); });
    if (!keys.length) return;
    keys.forEach(function (key) { entry(key).requests.add(xhr); });
    xhr.addEventListener("loadend", function () { // load, error, abort or timeout: always once
      keys.forEach(function (key) { entry(key).requests.delete(xhr); });
      flushLater(keys, FLUSH_MS);
    });
  });

  // A live refresh of a busy region is not sent now...
  document.addEventListener("htmx:confirm", function (evt) {
    var type = liveEventType(evt.detail && evt.detail.triggeringEvent);
    var region = evt.detail && evt.detail.elt;
    if (!type || !isRegion(region)) return;
    var key = keyOf(region);
    if (key && busy(key)) {
      evt.preventDefault();
      entry(key).pending = type;
    }
  });

  // ...and one already on its way when the region became busy is not swapped in: asked again later.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var detail = evt.detail || {};
    var config = detail.requestConfig || {};
    var type = liveEventType(config.triggeringEvent);
    if (!type || !isRegion(detail.elt)) return;
    var key = keyOf(detail.elt);
    if (key && busy(key)) {
      detail.shouldSwap = false;
      entry(key).pending = type;
    }
  });
})();
