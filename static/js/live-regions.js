/*
 * Live regions that never lie (issue #10): a region refreshed by the SSE stream
 * (hx-trigger="sse:changed") or by the answer to an action is swapped with htmx's own morphing
 * swap (hx-swap="morph", the idiomorph extension, served from static/vendor/idiomorph). A push is
 * on screen at once; morphing keeps the elements, so a finger on a button, a request on its way,
 * the focus and the scroll position all survive it.
 *
 * What the person typed or chose in a form and has not sent yet survives too: idiomorph keeps the
 * focused field's value (ignoreActiveValue), and the fields edited since the page or the form was
 * last rendered keep their value, checked and selected states (beforeAttributeUpdated). Sending
 * the form ends the edit: its answer may then reset it.
 *
 * A push ("changed", with the topic's version) may name the regions that changed; the other
 * regions of the page do not refetch. A session page fetches the regions a push names in one
 * request (its live element, below).
 *
 * Loaded once by templates/base.html, after htmx and idiomorph; no inline script (CSP).
 */
(function () {
  "use strict";
  var KEPT = { value: true, checked: true, selected: true };

  function field(elt) {
    if (!elt || elt.nodeType !== 1) return null;
    return elt.tagName === "OPTION" ? elt.closest("select") : elt;
  }

  function edited(elt) {
    var f = field(elt);
    return !!(f && f.hasAttribute("data-edited"));
  }

  function markEdited(evt) {
    var target = evt.target;
    if (target && target.form && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) {
      target.setAttribute("data-edited", "");
    }
  }
  document.addEventListener("input", markEdited, true);
  document.addEventListener("change", markEdited, true);

  // A form that is sent is no longer being filled in: its fields may take what the answer says.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    var form = elt && (elt.tagName === "FORM" ? elt : elt.form || (elt.closest && elt.closest("form")));
    if (!form) return;
    form.querySelectorAll("[data-edited]").forEach(function (f) { f.removeAttribute("data-edited"); });
  });

  // A push names the regions its change can show in (issue #11); a push that names none (a
  // reconnect, a healed push) means every region. The region's name is its id (checks, board, feed,
  // combat, me, sheet, members, activity).
  function named(push) {
    try {
      var regions = JSON.parse(push.data).regions;
      return Array.isArray(regions) ? regions : null;
    } catch (e) {
      return null;  // not ours to judge: every region
    }
  }

  // The session pages hold one live element (data-live-regions: the page's regions): each push
  // becomes one request for the regions it names, answered with each of them swapped out of band
  // (frontera/play/views/sessions.py), instead of one request per region. The regions of the pushes
  // not fetched yet are gathered here: a push that comes while the previous request is on its way
  // waits for it (htmx queues the element's last trigger) and is then fetched with every region
  // named meanwhile, so no push is lost to the queue keeping only the last one. A request that
  // fails (the network, the server, its timeout) puts its regions back and is tried again after a
  // pause that doubles up to RETRY_MAX_MS; a refusal (4xx: the page asks for what it may not have
  // any more) is not tried again.
  var RETRY = "frontera:live-retry", RETRY_FIRST_MS = 500, RETRY_MAX_MS = 16000;
  var waiting = new WeakMap();  // the live element → the regions to fetch next: a Set, or "all"
  var sent = new WeakMap();     // the live element → the regions of its request on its way
  var failures = new WeakMap(); // the live element → its requests failed in a row
  var counted = new WeakMap();  // a push → the live elements that gathered it (a push may trigger one twice)

  function gather(elt, regions) {  // regions: a list of names, or null for every region
    var next = waiting.get(elt);
    if (regions === null || next === "all") {
      waiting.set(elt, "all");
      return;
    }
    if (!next) waiting.set(elt, (next = new Set()));
    regions.forEach(function (name) { next.add(name); });
  }

  function isLive(elt) {
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-live-regions"));
  }

  document.addEventListener("sse:changed", function (evt) {
    var elt = evt.target, push = evt.detail;
    if (!isLive(elt) || !push || typeof push !== "object") return;
    if (push.retry === RETRY) return;  // a retry: its regions were put back when its request failed
    var gathered = counted.get(push);
    if (!gathered) counted.set(push, (gathered = new WeakSet()));
    if (gathered.has(elt)) return;
    gathered.add(elt);
    gather(elt, named(push));
  }, true);  // capturing: before htmx's own listener on the element sends the request

  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.target;
    if (!isLive(elt) || !sent.has(elt)) return;
    var regions = sent.get(elt), detail = evt.detail || {};
    sent.delete(elt);
    var status = detail.xhr ? detail.xhr.status : 0;
    if (detail.successful || (status >= 400 && status < 500 && status !== 408 && status !== 429)) {
      failures.delete(elt);
      return;
    }
    gather(elt, regions);
    var failed = (failures.get(elt) || 0) + 1;
    failures.set(elt, failed);
    setTimeout(function () {
      if (elt.isConnected && window.htmx) window.htmx.trigger(elt, "sse:changed", { retry: RETRY });
    }, Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * Math.pow(2, failed - 1)));
  });

  // One push, one refetch per region: htmx's sse extension can hold two listeners for one region
  // (it registers one again when the region is processed again), and each would trigger a
  // refetch of its own, the second queued behind the first: every phone fetched each region twice
  // per push (issue #11, bench/browser_bench.py). A push is one MessageEvent; a region that has
  // already refetched for it does not again.
  var refetched = new WeakMap();  // a push's MessageEvent → the regions that refetched for it
  document.addEventListener("htmx:configRequest", function (evt) {
    var trigger = evt.detail && evt.detail.triggeringEvent;
    var elt = evt.detail && evt.detail.elt;
    if (!trigger || trigger.type !== "sse:changed" || !trigger.detail || !elt) return;
    if (elt.hasAttribute("data-live-regions")) {
      var next = waiting.get(elt);
      waiting.delete(elt);
      var here = elt.getAttribute("data-live-regions").split(" ");
      var wanted = next === "all" ? here : here.filter(function (name) { return next && next.has(name); });
      if (!wanted.length) {
        evt.preventDefault();  // nothing this page shows has changed, or it was fetched already
        return;
      }
      evt.detail.parameters.regions = wanted.join(",");
      sent.set(elt, wanted);
      return;
    }
    var push = trigger.detail;
    if (typeof push === "object") {
      var done = refetched.get(push);
      if (!done) refetched.set(push, (done = new WeakSet()));
      if (done.has(elt)) {
        evt.preventDefault();
        return;
      }
      done.add(elt);
    }
    var regions = named(push);
    if (regions !== null && regions.indexOf(elt.id) === -1) evt.preventDefault();
  });

  // An action's answer whose form a push has morphed away meanwhile. The push reaches a page before
  // the answer to its own action (frontera/live/bus.py, push first), so the region's refetch can
  // swap first and remove the form that sent the action (a declaration once made, its form goes).
  // htmx looks for the "morph" extension from the element that sent the request: from a detached
  // form it finds none and falls back to innerHTML, which put the answer's <section id="combat">
  // inside #combat (tests/browser/test_ui_race.py caught the region twice). Such an answer is
  // swapped with the same style from its target, which is still in the page.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var detail = evt.detail;
    var elt = detail && detail.requestConfig && detail.requestConfig.elt;
    if (!detail.shouldSwap || !elt || elt.isConnected || !detail.target || !detail.target.isConnected) return;
    var styled = elt.closest ? elt.closest("[hx-swap]") : null;
    var style = detail.swapOverride || (styled ? styled.getAttribute("hx-swap") : "");
    if (!style || style.indexOf("morph") !== 0) return;
    detail.shouldSwap = false;
    window.htmx.swap(detail.target, detail.serverResponse,
      { swapStyle: style, swapDelay: 0, settleDelay: window.htmx.config.defaultSettleDelay },
      { contextElement: detail.target });
  });

  function configure() {
    if (!window.Idiomorph) return;
    window.Idiomorph.defaults.ignoreActiveValue = true;
    window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (attribute, element) {
      if (KEPT[attribute] && edited(element)) return false;  // what the person chose stays
      if (attribute === "open" && element.tagName === "DETAILS") return false;  // opened or closed by hand
      if (attribute === "data-edited") return false;        // and so does the mark itself
      return true;
    };
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", configure);
  else configure();
})();
