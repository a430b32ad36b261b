/*
 * A card table keeps its player where the game is. The table's region is morphed in place after
 * every move, so a phone stayed wherever its player had tapped: below the board, on the log once
 * the move's buttons were gone, and with the game's result off screen at the top. After a morph:
 * - the result, when the game has just ended, is brought into view;
 * - the turn line ("Your turn. Your move ↓", or who is to move), when the turn has just changed
 *   hands and that line is off screen, is brought to the top, so the board is read from there and
 *   the move is one tap away (the link under it).
 * - the same when it is the player's turn again after others have moved, though the line reads as
 *   before: the other's answer can come in the same morph as the player's own move (a bot's
 *   reply), and the line never showed the other's turn.
 * Nothing moves while the turn stays where it was and nobody else moved (a player reading the
 * board, or making several moves of one turn, is not pulled away).
 * Loaded by cardgames/table.html; no inline script (CSP).
 */
(function () {
  "use strict";
  var last = null;

  function snapshot() {
    var turn = document.querySelector("[data-testid=turn]");
    var state = document.querySelector("[data-testid=table-state]");
    return {
      turn: turn ? turn.textContent.replace(/\s+/g, " ").trim() : "",
      over: !!document.querySelector("[data-outcome]"),
      mine: !!document.querySelector("[data-testid=turn] [data-testid=to-actions]"),
      version: state ? parseInt(state.getAttribute("data-version"), 10) || 0 : 0,
    };
  }

  function offScreen(element) {
    var box = element.getBoundingClientRect();
    return box.top < 0 || box.bottom > window.innerHeight;
  }

  document.addEventListener("DOMContentLoaded", function () { last = snapshot(); });
  document.addEventListener("htmx:afterSettle", function (event) {
    var region = document.getElementById("table");
    if (!region || !last || !region.contains(event.detail.elt) && event.detail.elt !== region) return;
    var now = snapshot();
    var turn = document.querySelector("[data-testid=turn]");
    var outcome = document.querySelector("[data-outcome]");
    if (now.over && !last.over && outcome) {
      outcome.scrollIntoView({ block: "start", behavior: "smooth" });
    } else if (turn && offScreen(turn)) {
      // the player's own move accounts for one version; anything beyond it is someone else's
      var own = event.detail.requestConfig && event.detail.requestConfig.verb === "post" ? 1 : 0;
      var othersMoved = now.version > last.version + own;
      if (now.turn !== last.turn || (now.mine && othersMoved)) {
        turn.scrollIntoView({ block: "start", behavior: "smooth" });
      }
    }
    last = now;
  });
})();
