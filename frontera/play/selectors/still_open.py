"""What keeps a session from ending, each thing named and with where it is on the Mayor's page,
so the confirmation page can lead to it (it listed "a check, an exchange" and nothing to click)."""

from django.utils.text import capfirst
from django.utils.translation import gettext

from frontera.characters.models import Character
from frontera.messages import names_text
from frontera.play.models import MAYOR_SEAT, Check, CombatRound, Exchange, Gamble, GameSession
from frontera.play.selectors.checks import check_label
from frontera.play.services.exchanges import EXCHANGE_LABELS, SHARING


def open_items(session: GameSession) -> list[dict]:
    """Every open check, fight, exchange (a treasure sharing among them) and gambling game of
    ``session``, oldest first within each kind: ``{"what": ..., "anchor": ...}``, the text in the
    reader's language and the id of its article on the session's page."""
    items = []
    for prueba in session.checks.exclude(status=Check.Status.RESOLVED).order_by("pk"):
        kind = gettext("Opposed check") if prueba.kind == Check.Kind.OPPOSED else gettext("Trait check")
        who = names_text([p.character.name for p in prueba.participants.select_related("character").order_by("pk")])
        label = check_label(prueba)
        items.append({"what": " · ".join(filter(None, (kind, label, who))), "anchor": f"check-{prueba.pk}"})
    for combat in session.combats.filter(status=CombatRound.Status.OPEN).order_by("pk"):
        items.append({"what": gettext("The fight, turn %(turn)s") % {"turn": combat.state.get("turn", 1)},
                      "anchor": "combat"})
    for exchange in session.exchanges.filter(status=Exchange.Status.PENDING).order_by("pk"):
        if exchange.kind == SHARING:
            items.append({"what": gettext("Sharing the Tesoro"), "anchor": f"sharing-{exchange.pk}"})
            continue
        kind = gettext(EXCHANGE_LABELS.get(exchange.kind, exchange.get_kind_display()))
        who = [gettext(name) if seat == MAYOR_SEAT else name
               for seat, name in ((exchange.first, exchange.first_name), (exchange.second, exchange.second_name))]
        items.append({"what": f"{kind} · {names_text(who)}",
                      "anchor": f"exchange-{exchange.pk}"})
    for gamble in session.gambles.filter(status=Gamble.Status.OPEN).order_by("pk"):
        items.append(_gamble_item(gamble))
    return items


def _gamble_item(gamble: Gamble) -> dict:
    names = list(Character.objects.filter(pk__in=[int(k) for k in gamble.players]).order_by("pk")
                 .values_list("name", flat=True))
    if gamble.kind == Gamble.Kind.BANCA:
        return {"what": gettext("La banca · %(who)s") % {"who": names_text(names)}, "anchor": f"banca-{gamble.pk}"}
    if gamble.kind == Gamble.Kind.DRINKING_DUEL:
        return {"what": gettext("Drinking duel · %(who)s") % {"who": names_text(names)},
                "anchor": f"drinking-duel-{gamble.pk}"}
    # azar and habilidad are played as an opposed check: the check's article is where it is
    anchor = f"check-{gamble.prueba_id}" if gamble.prueba_id else "checks"
    return {"what": f"{capfirst(gamble.get_kind_display())} · {names_text(names)}", "anchor": anchor}
