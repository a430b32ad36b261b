/*
 * The Mayor's dialog: a form fetched on demand (hx-get into #dialog-body) opens as a modal
 * <dialog>; a successful action closes it (the server sends the "frontera:close-dialog" event
 * with HX-Trigger); Escape, the close button or a click on the backdrop close it too. Focus goes
 * back to the button that opened it. Loaded by play/dashboard.html; no inline script (CSP).
 */
(function () {
  "use strict";
  var opener = null;

  function dialog() { return document.getElementById("action-dialog"); }

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (target && target.id === "dialog-body") opener = evt.detail.elt;
  });

  document.addEventListener("htmx:afterSwap", function (evt) {
    var box = dialog();
    if (box && evt.detail && evt.detail.target.id === "dialog-error") {
      evt.detail.target.scrollIntoView({ block: "nearest" });  // a refused action says why, in view
      return;
    }
    if (!box || !evt.detail || evt.detail.target.id !== "dialog-body") return;
    if (!box.open) box.showModal();
    var first = box.querySelector("input:not([type=hidden]), select, textarea, button[type=submit]");
    if (first) first.focus();
  });

  function close() {
    var box = dialog();
    if (box && box.open) box.close();
  }

  document.addEventListener("frontera:close-dialog", close);

  document.addEventListener("click", function (evt) {
    var box = dialog();
    if (!box) return;
    if (evt.target.closest && evt.target.closest("[data-close-dialog]")) close();
    else if (evt.target === box) close();  // the backdrop
  });

  document.addEventListener("close", function (evt) {
    if (evt.target !== dialog()) return;
    document.getElementById("dialog-body").replaceChildren();
    if (opener && document.body.contains(opener)) opener.focus();
    opener = null;
  }, true);
})();
