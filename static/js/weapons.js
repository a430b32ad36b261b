/*
 * A fighter's weapon list follows the technique chosen (FR-CMB-2): only the weapons carried that
 * the technique may use stay offered ("none" for Pelea and the actions without a weapon). Without
 * JavaScript every carried weapon is offered and the server says which one does not fit.
 * Loaded by the session pages; no inline script (CSP).
 */
(function () {
  "use strict";
  var UNARMED = { pelea: true, move: true, medical: true, other: true };

  function follow(select, byHand) {
    var technique = document.getElementById(select.getAttribute("data-follows"));
    if (!technique) return;
    var chosen = technique.value;
    var keep = null;
    Array.prototype.forEach.call(select.options, function (option) {
      var fits = option.value === "" ? !!UNARMED[chosen]
        : (" " + (option.getAttribute("data-techniques") || "") + " ").indexOf(" " + chosen + " ") >= 0;
      option.hidden = !fits;
      option.disabled = !fits;
      if (fits && keep === null) keep = option;
    });
    if (select.selectedOptions.length && select.selectedOptions[0].disabled && keep) {
      select.value = keep.value;
      if (byHand) select.setAttribute("data-edited", "");  // a choice made for the person: kept across pushes
    }
  }

  function all() {
    document.querySelectorAll("select[data-follows]").forEach(function (s) { follow(s, false); });
  }

  document.addEventListener("change", function (evt) {
    if (!evt.target || evt.target.tagName !== "SELECT") return;
    document.querySelectorAll('select[data-follows="' + evt.target.id + '"]').forEach(function (s) { follow(s, true); });
  });
  document.addEventListener("htmx:afterSettle", all);
  document.addEventListener("DOMContentLoaded", all);
})();
