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
 * request (its live element, below), or is sent them with the push ("regions", below).
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

  // What an edited field keeps when a region is morphed: its value and checked state; a list, which
  // of its options is selected, never the options' own values (an option matched by its place to
  // another one takes that one's value with its text: what the person sees chosen is what is sent).
  function kept(attribute, element) {
    if (!KEPT[attribute] || !edited(element)) return false;
    return element.tagName !== "OPTION" || attribute === "selected";
  }

  function markEdited(evt) {
    var target = evt.target;
    if (target && target.form && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) {
      target.setAttribute("data-edited", "");
    }
  }
  document.addEventListener("input", markEdited, true);
  document.addEventListener("change", markEdited, true);

  // A form whose answer says it was done is no longer being filled in: its fields may take what the
  // answer says. An answer that refuses it (X-Live-Refused: frontera/play/views/common.py, done),
  // an error or no answer leaves it as the person filled it in (a refused lock-in unticked every
  // card, and they had to be picked again).
  // (Only the fields edited before the send: one edited while the request was on its way stays edited.)
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt, xhr = evt.detail && evt.detail.xhr;
    var form = elt && (elt.tagName === "FORM" ? elt : elt.form || (elt.closest && elt.closest("form")));
    if (form && xhr) xhr.__fronteraSent = Array.prototype.slice.call(form.querySelectorAll("[data-edited]"));
  });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var detail = evt.detail || {}, xhr = detail.xhr, sent = xhr && xhr.__fronteraSent;
    if (!sent || !detail.shouldSwap || xhr.getResponseHeader("X-Live-Refused") === "1") return;
    sent.forEach(function (f) { f.removeAttribute("data-edited"); });
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
  var waiting = new WeakMap();  // the live element → the regions to fetch next (a Set)
  var sent = new WeakMap();     // the live element → the regions of its request on its way
  var failures = new WeakMap(); // the live element → its requests failed in a row
  var counted = new WeakMap();  // a push → the live elements that gathered it (a push may trigger one twice)

  function gather(elt, regions, version) {  // regions: a list of names, or null for every region
    regions = unbrought(elt, regions, version);
    if (!regions.length) return;  // nothing this page shows, or the answer to its own action brought it
    var highest = newest.get(elt);
    newest.set(elt, highest === undefined ? version : Math.max(highest, version));
    var next = waiting.get(elt);
    if (!next) waiting.set(elt, (next = new Set()));
    regions.forEach(function (name) { next.add(name); });
  }

  // This page's own action (issue #11). Its answer is the region it aimed at, as the action left it,
  // with the session's version that answer shows (X-Live-Version) and the regions it brought
  // (X-Live-Regions; frontera/play/views/common.py). The action's push names that region too, and
  // reaches the page before the answer (push first): refetching it would ask the server to build
  // again what the answer is bringing. So while an action aimed at a region is on its way, a push's
  // other regions are fetched at once, and that region waits for the answer, for HOLD_MS at most
  // (a slow answer does not keep the others' news from the page). The answer drops the regions it
  // brought from every push up to its version; a push newer than the answer, or one with no
  // version, keeps every region it names; an answer without the headers (a refusal shown in the
  // dialog, a failure) drops nothing.
  var HOLD_MS = 300;
  var aimed = new WeakMap();    // the live element → {region name: its page's actions on their way}
  var holdUntil = new WeakMap();  // the live element → when the regions it holds are fetched anyway
  var newest = new WeakMap();   // the live element → the newest version among the pushes it gathered
  var brought = new WeakMap();  // the live element → {version, regions} of its page's last answer
  var shown = new WeakMap();    // the live element → {region: the version of the state it shows}
  var redone = new WeakMap();   // the live element → {region: the newer version it was fetched again for}

  // Regions just swapped in (an answer, a refetch, the regions sent with a push) that show the state
  // at ``version``. Answers and pushes can cross: one may put back a state older than the one a
  // region showed (a refetch read before another's action committed, answered after that action's
  // push came with the region). Such regions are returned, to be fetched again: once per newer
  // state, so versions that do not grow (a database restored) cannot make it loop.
  function swapped(live, names, version) {
    if (isNaN(version)) return [];
    var at = shown.get(live) || {}, again = redone.get(live) || {}, stale = [];
    names.forEach(function (name) {
      if (at[name] !== undefined && at[name] > version && again[name] !== at[name]) {
        again[name] = at[name];
        stale.push(name);
      }
      at[name] = version;
    });
    shown.set(live, at);
    redone.set(live, again);
    return stale;
  }

  function fetchAgain(live, names) {
    if (!names.length) return;
    gather(live, names, Infinity);
    setTimeout(function () { refetch(live); }, 0);
  }

  function unbrought(elt, regions, version) {
    var here = elt.getAttribute("data-live-regions").split(" ");
    var names = regions === null ? here : regions.filter(function (name) { return here.indexOf(name) !== -1; });
    var answer = brought.get(elt);
    if (!answer || !(version <= answer.version)) return names;
    return names.filter(function (name) { return answer.regions.indexOf(name) === -1; });
  }

  function pushVersion(push) {
    var version = parseInt(push && push.lastEventId, 10);
    return isNaN(version) ? Infinity : version;  // unknown: newer than any answer
  }

  // The regions of ``wanted`` an action of the page is bringing, unless they have waited long enough.
  function held(elt, wanted) {
    var regions = aimed.get(elt) || {}, now = Date.now();
    var names = wanted.filter(function (name) { return regions[name] > 0; });
    if (!names.length) return names;
    if (!holdUntil.has(elt)) {
      holdUntil.set(elt, now + HOLD_MS);
      setTimeout(function () { refetch(elt); }, HOLD_MS);
    }
    return now < holdUntil.get(elt) ? names : [];
  }

  function refetch(elt) {  // the regions gathered and not fetched yet, if any
    var rest = waiting.get(elt);
    if (!rest || !rest.size) {  // nothing left: the next push starts afresh
      waiting.delete(elt);
      newest.delete(elt);
      holdUntil.delete(elt);
    } else if (elt.isConnected && window.htmx) {
      window.htmx.trigger(elt, "sse:changed", { retry: RETRY });
    }
  }

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var detail = evt.detail || {}, live = document.getElementById("live");
    var verb = detail.requestConfig && detail.requestConfig.verb, target = detail.target;
    if (!isLive(live) || !detail.xhr || !verb || verb.toLowerCase() === "get" || !target) return;
    if (live.getAttribute("data-live-regions").split(" ").indexOf(target.id) === -1) return;
    var regions = aimed.get(live) || {};
    regions[target.id] = (regions[target.id] || 0) + 1;
    aimed.set(live, regions);
    detail.xhr.__fronteraAimed = { live: live, region: target.id };
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail && evt.detail.xhr, action = xhr && xhr.__fronteraAimed;
    if (!action) return;
    delete xhr.__fronteraAimed;
    var live = action.live, regions = aimed.get(live) || {};
    regions[action.region] = Math.max(0, (regions[action.region] || 0) - 1);
    var version = parseInt(xhr.getResponseHeader("X-Live-Version"), 10);
    var names = (xhr.getResponseHeader("X-Live-Regions") || "").split(",").filter(Boolean);
    if (evt.detail.successful && !isNaN(version)) outrun(version);
    if (evt.detail.successful && !isNaN(version) && names.length) {
      var last = brought.get(live);
      if (!last || version >= last.version) brought.set(live, { version: version, regions: names });
      var next = waiting.get(live), highest = newest.get(live);
      if (next && highest !== undefined && highest <= version) {
        names.forEach(function (name) { next.delete(name); });
      }
      fetchAgain(live, swapped(live, names, version));  // older than what the page showed
    }
    refetch(live);  // what the answer did not bring
  });

  function isLive(elt) {
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-live-regions"));
  }

  // The regions a push named, sent with it for this page's viewer (event "regions", received by the
  // page's #live-push; frontera/play/views/pushed.py): swapped out of band from the live element,
  // as the answer to its request would have been, and counted as brought at the push's version, so
  // a notice up to that version does not fetch them again. A push of the page's own action, or one
  // the server could not render for this viewer, still comes as a "changed" notice (above).
  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    var elt = evt.target, live = document.getElementById("live"), push = evt.detail, data;
    if (!elt || elt.id !== "live-push") return;
    evt.preventDefault();  // swapped here, from the live element, not by the sse extension
    try {
      data = JSON.parse(push.data);
    } catch (e) {
      return;
    }
    if (!isLive(live) || !window.htmx || typeof data.html !== "string" || !Array.isArray(data.regions)) return;
    window.htmx.swap(live, data.html,
      { swapStyle: "none", swapDelay: 0, settleDelay: window.htmx.config.defaultSettleDelay },
      { contextElement: live });
    var version = data.version, last = brought.get(live);  // the state the regions show
    outrun(version);
    fetchAgain(live, swapped(live, data.regions, version));
    if (!last || version >= last.version) brought.set(live, { version: version, regions: data.regions });
    var next = waiting.get(live), highest = newest.get(live);
    if (next && highest !== undefined && highest <= version) {
      data.regions.forEach(function (name) { next.delete(name); });
    }
  }, true);

  // A deploy: the stream's first message ("hello", or "changed" for a page behind), sent at each
  // connection and reconnection (a deploy restarts the servers, so every stream connects again),
  // names the build of the pages its server renders (frontera/live/build.py). A session page
  // rendered by another build (data-build on its live element) could miss a region the new pages
  // have: it reloads itself, at most once for each build the tab has heard of (during a rolling
  // deploy its page and its stream may come from processes of either build: no reload loop),
  // unless the person is filling in something the reload would lose (a field edited and not sent,
  // an open dialog). Otherwise it says so (#live-stale, a live region present from the start, so
  // that its news is read out), and the person reloads when ready.
  var RELOADED = "frontera-live-reloaded-for";
  function checkBuild(push) {  // true: the page is reloading
    var live = document.getElementById("live"), build;
    try {
      build = JSON.parse(push.data).build;
    } catch (e) {
      return false;
    }
    if (!isLive(live) || typeof build !== "string" || !build || build === live.getAttribute("data-build")) return false;
    var busy = !!document.querySelector("[data-edited], dialog[open]"), reload = false;
    try {
      var seen = JSON.parse(window.sessionStorage.getItem(RELOADED) || "[]");
      if (!Array.isArray(seen)) seen = [];
      reload = !busy && seen.indexOf(build) === -1;
      if (reload) window.sessionStorage.setItem(RELOADED, JSON.stringify(seen.concat([build]).slice(-8)));
    } catch (e) { reload = false; /* no storage: never reload by itself */ }
    if (reload) {
      window.location.reload();
      return true;
    }
    var stale = document.getElementById("live-stale"), text = document.getElementById("live-stale-text");
    if (stale && text && !stale.firstElementChild) stale.appendChild(text.content.cloneNode(true));
    return false;
  }
  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    if (!evt.target || evt.target.id !== "live-hello") return;
    evt.preventDefault();  // nothing to swap: it is read here
    if (evt.detail) checkBuild(evt.detail);
  }, true);

  document.addEventListener("sse:changed", function (evt) {
    var elt = evt.target, push = evt.detail;
    if (!isLive(elt) || !push || typeof push !== "object") return;
    if (typeof push.data === "string" && push.data.indexOf('"build"') !== -1 && checkBuild(push)) return;
    if (push.retry === RETRY) return;  // a retry: its regions were put back when its request failed
    var gathered = counted.get(push);
    if (!gathered) counted.set(push, (gathered = new WeakSet()));
    if (gathered.has(elt)) return;
    gathered.add(elt);
    outrun(pushVersion(push));
    gather(elt, named(push), pushVersion(push));
  }, true);  // capturing: before htmx's own listener on the element sends the request

  // The Mayor's "Undo" (templates/play/dashboard.html) undoes his last table action only while the
  // session's log ends with it (data-undo-until: that action's event). A change that names no board
  // region (a check called, a card drawn) left it on the page, refused when clicked: it goes as soon
  // as the page hears of a later version, from a push or from an answer.
  function outrun(version) {
    if (!isFinite(version)) return;
    document.querySelectorAll("form.undo[data-undo-until]").forEach(function (form) {
      if (version > parseInt(form.getAttribute("data-undo-until"), 10)) form.remove();
    });
  }

  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.target;
    if (!isLive(elt) || !sent.has(elt)) return;
    var regions = sent.get(elt), detail = evt.detail || {};
    sent.delete(elt);
    var status = detail.xhr ? detail.xhr.status : 0;
    if (detail.successful) {
      failures.delete(elt);
      fetchAgain(elt, swapped(elt, regions, parseInt(detail.xhr.getResponseHeader("X-Live-Version"), 10)));
      return;
    }
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      failures.delete(elt);
      return;
    }
    gather(elt, regions, Infinity);
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
      var here = elt.getAttribute("data-live-regions").split(" ");
      var wanted = here.filter(function (name) { return next && next.has(name); });
      var kept = held(elt, wanted);  // what the page's own action is bringing (above)
      wanted = wanted.filter(function (name) { return kept.indexOf(name) === -1; });
      if (kept.length) {
        waiting.set(elt, new Set(kept));
      } else {
        waiting.delete(elt);
        newest.delete(elt);
        holdUntil.delete(elt);
      }
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

  // A refused action's reason shows at the top of its region (the answer's role="alert"): a region
  // scrolled down to the form that sent it (a fighter's hand) left the reason above the column's
  // top, and nothing seemed to happen. It is brought into view; one already in view stays put.
  document.addEventListener("htmx:afterSettle", function (evt) {
    var detail = evt.detail || {};
    if (!detail.xhr || detail.xhr.getResponseHeader("X-Live-Refused") !== "1" || !detail.target) return;
    var reason = detail.target.querySelector ? detail.target.querySelector('[role="alert"]') : null;
    if (reason) reason.scrollIntoView({ block: "nearest", behavior: "smooth" });
  });

  function configure() {
    if (!window.Idiomorph) return;
    window.Idiomorph.defaults.ignoreActiveValue = true;
    window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (attribute, element) {
      if (kept(attribute, element)) return false;  // what the person chose stays
      if (attribute === "open" && element.tagName === "DETAILS") return false;  // opened or closed by hand
      if (attribute === "data-edited") return false;        // and so does the mark itself
      return true;
    };
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", configure);
  else configure();
})();
