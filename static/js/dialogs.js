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
    // (the regions sent with a push are swapped with htmx.swap, whose event names no target)
    var box = dialog(), target = evt.detail && evt.detail.target;
    if (!box || !target) return;
    if (target.id === "dialog-error") {
      target.scrollIntoView({ block: "nearest" });  // a refused action says why, in view
      return;
    }
    if (target.id !== "dialog-body") return;
    if (!box.open) box.showModal();
    var first = box.querySelector("input:not([type=hidden]), select, textarea, button[type=submit]");
    if (first) first.focus();
  });

  function close() {
    var box = dialog();
    if (box && box.open) box.close();
  }

  // After a successful call the dialog closes and the answer (the region the form aimed at) is
  // swapped in: the newest open item there is brought into view and marked for a moment, so the
  // Mayor sees the check he just called.
  // A form opened for one item (a fighter's declaration) names it in its opener's data-fresh: that
  // item is the one marked.
  var showNewest = false, named = "";
  document.addEventListener("frontera:close-dialog", function () {
    named = (opener && opener.getAttribute("data-fresh")) || "";
    close();
    showNewest = true;
  });
  document.addEventListener("htmx:afterSettle", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!showNewest || !target || !/^(checks|combat)$/.test(target.id)) return;
    showNewest = false;
    var newest = named ? document.getElementById(named) : null, best = -1;
    named = "";
    if (!newest) {
      var items = target.querySelectorAll("article[id^='check-']:not(.done), article[id^='exchange-'], article[id^='banca-'], article.fighter");
      items.forEach(function (item) {
        var n = parseInt(item.id.replace(/\D+/g, ""), 10);
        if (!isNaN(n) && n > best) { best = n; newest = item; }
      });
    }
    if (!newest) return;
    newest.scrollIntoView({ block: "nearest" });
    newest.classList.add("fresh");
    window.setTimeout(function () { newest.classList.remove("fresh"); }, 2500);
    // the button that opened the dialog went with the answer (a fighter's "Declare for …" once
    // declared): focus goes to what the item asks next, not back to the top of the page
    var focused = document.activeElement;
    if (!focused || focused === document.body) {
      var next = newest.querySelector("button:not([disabled]), a[href], select, input:not([type=hidden])");
      if (next) next.focus({ preventScroll: true });
    }
  });

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
