/*
 * A "copy" button beside a read-only field: data-copy="#id" names the field; a press copies its
 * text (the Clipboard API, or the field selected for the phone's own copy where that API is not
 * there) and the button says so for a moment (data-copied). Without JavaScript the button stays
 * hidden and the field can be selected by hand. No inline script (CSP).
 */
(function () {
  "use strict";

  function show() {
    document.querySelectorAll("[data-copy]").forEach(function (button) { button.hidden = false; });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.querySelector(button.getAttribute("data-copy"));
    if (!field) return;
    var label = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", label);
    function done() {
      button.textContent = button.getAttribute("data-copied") || label;
      window.setTimeout(function () { button.textContent = label; }, 2000);
    }
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
    } else {
      try { if (document.execCommand("copy")) done(); } catch (e) { /* selected: the phone's own copy */ }
    }
  });
  document.addEventListener("DOMContentLoaded", show);
  document.addEventListener("htmx:afterSettle", show);
})();
