/*
 * A form's fields that belong to one choice of another field: a field whose input says
 * data-shown-by="action" data-shown-for="fall train" is shown only while the form's "action" is
 * one of those, and is disabled while hidden (a hidden field is neither sent nor checked by the
 * browser, so a value left in it cannot stop the form). Without JavaScript every field shows and
 * the server reads only those of the chosen action. Loaded by the session pages; no inline script (CSP).
 */
(function () {
  "use strict";

  function follow(form) {
    form.querySelectorAll("[data-shown-by]").forEach(function (input) {
      var by = form.elements[input.getAttribute("data-shown-by")];
      if (!by) return;
      var shown = (" " + input.getAttribute("data-shown-for") + " ").indexOf(" " + by.value + " ") >= 0;
      (input.closest(".field") || input).hidden = !shown;
      input.disabled = !shown;
    });
  }

  function all() {
    document.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("[data-shown-by]")) follow(form);
    });
  }

  document.addEventListener("change", function (evt) {
    var form = evt.target && evt.target.form;
    if (form && form.querySelector('[data-shown-by="' + evt.target.name + '"]')) follow(form);
  });
  document.addEventListener("htmx:afterSettle", all);
  document.addEventListener("DOMContentLoaded", all);
})();
