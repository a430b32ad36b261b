/*
 * What a person is told when the server cannot be reached, or fails (a walk through a live
 * session found taps made while the server was down doing nothing, with no word of it, and pages
 * behind without saying so). One notice at a time in #connection (templates/base.html, its texts
 * in the <template>s beside it, translated there):
 * - "connection-failed": something the person asked for got no answer (htmx:sendError,
 *   htmx:timeout): it may not have been done;
 * - "connection-server": what the person asked for met a server error (5xx): not done;
 * - "connection-refused": an action refused outright (4xx; a refusal the table explains comes as
 *   an answer with its message, not as an error): the page may be out of date, or the log-in ended;
 * - "connection-lost": the page's live stream is down (htmx's sse extension: htmx:sseError, until
 *   htmx:sseOpen), or a region a push asked for could not be fetched (static/js/live-regions.js
 *   tries it again): what the page shows may be behind, and it is trying again by itself.
 * A request a push set off (its triggering event is the stream's) is the page's own business: it
 * only ever shows "connection-lost". A notice about the person's request goes at the next one of
 * theirs that is answered. While a modal dialog is open (the Mayor's forms) the notice shows in it:
 * the rest of the page is behind the dialog and inert.
 * Loaded by templates/base.html; no inline script (CSP).
 */
(function () {
  "use strict";
  var streamDown = false, fetchFailed = false, asked = "";

  function show() {
    var box = document.getElementById("connection");
    if (!box) return;
    var host = document.querySelector("dialog[open]") || document.body;
    if (box.parentNode !== host) host.appendChild(box);
    var name = asked || (streamDown || fetchFailed ? "connection-lost" : "");
    if ((box.getAttribute("data-showing") || "") === name) return;
    box.setAttribute("data-showing", name);
    box.textContent = "";
    var text = name ? document.getElementById(name) : null;
    if (text) box.appendChild(text.content.cloneNode(true));
  }

  function config(evt) {
    return (evt.detail && evt.detail.requestConfig) || {};
  }
  function byPush(evt) {  // a refetch the live stream set off, not the person
    var trigger = config(evt).triggeringEvent;
    return !!trigger && typeof trigger.type === "string" && trigger.type.indexOf("sse:") === 0;
  }
  function isAction(evt) {
    var verb = config(evt).verb;
    return !!verb && verb.toLowerCase() !== "get";
  }

  function noAnswer(evt) {
    if (byPush(evt)) fetchFailed = true;
    else asked = "connection-failed";
    show();
  }
  document.addEventListener("htmx:sendError", noAnswer);
  document.addEventListener("htmx:timeout", noAnswer);

  document.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail && evt.detail.xhr, status = xhr ? xhr.status : 0;
    if (byPush(evt)) {
      if (status >= 500) fetchFailed = true;  // tried again (live-regions.js); a 4xx is not
    } else if (status >= 500) {
      asked = "connection-server";
    } else if (isAction(evt)) {
      asked = "connection-refused";
    } else {
      return;
    }
    show();
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!evt.detail || !evt.detail.successful) return;
    fetchFailed = false;
    if (!byPush(evt)) asked = "";
    show();
  });

  document.addEventListener("htmx:sseError", function () { streamDown = true; show(); });
  document.addEventListener("htmx:sseOpen", function () { streamDown = false; show(); });
  // a dialog opened or closed: the notice moves to where it can be seen
  document.addEventListener("close", show, true);
  document.addEventListener("htmx:afterSwap", show);
})();
