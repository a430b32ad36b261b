/*
 * What a person is told when the server cannot be reached, or fails (a walk through a live
 * session found taps made while the server was down doing nothing, with no word of it, and pages
 * behind without saying so). One notice at a time in #connection (templates/base.html, its texts
 * in the <template>s beside it, translated there):
 * - "connection-failed": an action (a request that is not a GET) got no answer (htmx:sendError,
 *   htmx:timeout): it may not have been done;
 * - "connection-server": an answer that is a server error (5xx): not done;
 * - "connection-refused": an action refused outright (4xx; a refusal the table explains comes as
 *   an answer with its message, not as an error): the log-in may have ended, reload;
 * - "connection-lost": the page's live stream is down (htmx's sse extension: htmx:sseError, until
 *   htmx:sseOpen), or a region could not be fetched: what the page shows may be behind, and it is
 *   trying again by itself.
 * An action's notice goes at the next answered request; the stream's when it is open again.
 * Loaded by templates/base.html; no inline script (CSP).
 */
(function () {
  "use strict";
  var streamDown = false, fetchFailed = false, action = "";

  function show() {
    var box = document.getElementById("connection");
    if (!box) return;
    var name = action || (streamDown || fetchFailed ? "connection-lost" : "");
    if ((box.getAttribute("data-showing") || "") === name) return;
    box.setAttribute("data-showing", name);
    box.textContent = "";
    var text = name ? document.getElementById(name) : null;
    if (text) box.appendChild(text.content.cloneNode(true));
  }

  function isAction(detail) {
    var verb = detail && detail.requestConfig && detail.requestConfig.verb;
    return !!verb && verb.toLowerCase() !== "get";
  }

  function noAnswer(evt) {
    if (isAction(evt.detail)) action = "connection-failed";
    else fetchFailed = true;
    show();
  }
  document.addEventListener("htmx:sendError", noAnswer);
  document.addEventListener("htmx:timeout", noAnswer);

  document.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail && evt.detail.xhr, status = xhr ? xhr.status : 0;
    if (status >= 500) action = "connection-server";
    else if (isAction(evt.detail)) action = "connection-refused";
    else return;  // a region the page may no longer show: static/js/live-regions.js decides
    show();
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!evt.detail || !evt.detail.successful) return;
    action = "";
    fetchFailed = false;
    show();
  });

  document.addEventListener("htmx:sseError", function () { streamDown = true; show(); });
  document.addEventListener("htmx:sseOpen", function () { streamDown = false; show(); });
})();
