"""The fight as a viewer may see it (declarations, hands, the reveal, the death roll's count), the
defaults of a fighter's declaration and the weapons each duellist carries."""

from __future__ import annotations

import uuid
from functools import cache, partial

from django.utils.translation import gettext

from frontera import glossary
from frontera.characters.models import CatalogueItem, Character
from frontera.characters.selectors import campaign_catalogue
from frontera.play.models import CombatRound, GameSession, Seat, combat_key, seat_key
from frontera.play.selectors.core import Viewer, card_view, cards_view, render_message
from frontera.play.services.combat import COVER_LABELS, MOUNT_LABELS
from frontera.play.services.death import DEATH_ROLL_TURNS
from frontera.rules import combat as rules_combat
from frontera.rules.cards import SUIT_SYMBOL, TRAIT_SUIT, Card
from frontera.rules.tracks import HEALTH_NAMES, MORALE_NAMES, incapacity
from frontera.sql import column, load, table


def _situation(decl: dict) -> str:
    """The declared situation at the start of the turn (FR-CMB-9, FR-CMB-10), public like the rest."""
    parts = [gettext(COVER_LABELS[decl["cover"]])]
    if decl.get("mount"):
        parts.append(gettext(MOUNT_LABELS[decl["mount"]]))
    if decl.get("holstered"):
        parts.append(gettext("weapons holstered"))
    return ", ".join(parts)


def _death_turns_left(session: GameSession, combat: CombatRound, character_id: int) -> int | None:
    """FR-HLT-3: combat turns left for the death roll of a fighter who died in this fight."""
    record = session.tallies.get("dying", {}).get(str(character_id))
    if not record or record.get("combat") != combat.pk:
        return None
    return max(0, DEATH_ROLL_TURNS - (combat.turn - record["turn"]))


@cache
def _open_fight_sql() -> str:
    """The session's open fight (:func:`frontera.sql.load`: every page and the answer to every action
    of a fight ask; the queryset took ~0.3 ms to build; issue #11)."""
    return (f"SELECT * FROM {table(CombatRound)} WHERE {column(CombatRound, 'session')} = %s "
            f"AND {column(CombatRound, 'status')} = %s ORDER BY {column(CombatRound, 'pk')} DESC LIMIT 1")


def combat_view(session: GameSession, viewer: Viewer) -> dict | None:
    """The open fight as this viewer may see it: declarations are public; a hand is seen by its
    holder only (the player, or the Mayor for NPCs and minions and for a hand he drew for a player); chosen cards by their holder until
    the one reveal, then by everyone; unchosen cards never (FR-CMB-1)."""
    found = load(CombatRound, _open_fight_sql(), (session.pk, CombatRound.Status.OPEN))
    if not found:
        return None
    combat = found[0]
    state = combat.state
    ids = [int(key[1:]) for key in state["combatants"]]
    characters = Character.objects.by_id(ids)
    names = {combat_key(pk): c.name for pk, c in characters.items()}
    revealed = bool(state.get("revealed"))
    phase = rules_combat.phase(state)
    waiting = rules_combat.npcs_to_draw(state) if not revealed else []
    # the weapons' names in the reader's language (the campaign's catalogue), read once, and only
    # if a declaration form is shown: the engine's spec names a weapon by its catalogue key
    weapon_names = cache(lambda: {i.key: i.display_name for i in
                                  CatalogueItem.objects.filter(campaign_id=session.campaign_id).only("key", "name", "name_en")})
    rows = []
    for key, spec in state["combatants"].items():
        character = characters[int(key[1:])]
        totals = (state.get("result") or {}).get("targets", {}).get(key) if revealed else None
        if totals:  # the revealed result is on the sheet already; the round applies it next turn
            spec = {**spec, "health": totals["health_after"], "morale": totals["morale_after"]}
        own = seat_key(character.pk) in viewer.seats
        holds = own or (viewer.is_mayor and (character.kind != Character.Kind.PROTAGONIST
                                             or combat.drawn_by.get(key) == viewer.user.pk))
        can_act = viewer.is_mayor or own
        decl = state["declarations"].get(key)
        hand = state["hands"].get(key)
        plays = state["plays"].get(key, [])
        # the enemies who may be attacked: all but the dead (an incapacitated one may still be hit)
        enemies = [k for k, s in state["combatants"].items() if s["side"] != spec["side"]
                   and HEALTH_NAMES[s["health"]] != "Muerto"]
        defaults = _declare_defaults(state, key, state.get("previous", {}).get(key), enemies)
        rows.append({
            "key": key, "pk": character.pk, "name": character.name, "side": spec["side"],
            "health": glossary.name("level", HEALTH_NAMES[spec["health"]]),
            "morale": glossary.name("level", MORALE_NAMES[spec["morale"]]),
            "aguante": spec["aguante"], "cover": spec["cover"],
            "declared": decl is not None,
            "technique": glossary.name("technique", decl["technique"]) if decl and decl.get("technique") else "",
            # the weapon declared, by the campaign's name for it ("melee weapon → …" did not say which)
            "weapon_name": weapon_names().get(decl["weapon"], decl["weapon"]) if decl and decl.get("weapon") else "",
            "moves_only": bool(decl) and decl.get("action") == "move",
            "targets": [(names.get(t, t), glossary.name("band", band).lower())
                        for t, band in (decl or {}).get("targets", {}).items()],
            "aim_choices": [(characters[int(t[1:])].pk, names.get(t, t)) for t in (decl or {}).get("targets", {})]
            if len((decl or {}).get("targets", {})) > 1 else [],
            "special": glossary.name("special", decl["special"]) if decl and decl.get("special") else "",
            "move": (decl or {}).get("move"),
            "move_band_label": glossary.name("band", decl["move"]["band"]).lower()
            if decl and decl.get("move") and decl["move"].get("band") else "",
            # where they end the turn, said as a cover ("cobertura total"; it read "· total")
            "move_cover_label": gettext(COVER_LABELS[decl["move"]["cover"]])
            if decl and decl.get("move") and decl["move"].get("cover") in COVER_LABELS else "",
            "required": state["required"].get(key),
            "hand_size": len(hand) if hand is not None else None,
            "hand": _hand_reads(cards_view(hand), decl) if holds and hand else [],
            "counts": _counts(decl) if holds and hand else "",
            "has_joker": bool(holds and hand and any(Card.from_uid(u).is_joker for u in hand)),
            "max_plays": state["max_plays"].get(key),
            "locked": key in state["plays"],
            "chosen": [card_view(p["card"], p.get("suit") or "") for p in plays] if (holds or revealed) else [],
            "weapons": partial(_weapon_options, spec, weapon_names),  # called by the form only
            **defaults,
            # each enemy: its character's id, its name, whether the form starts with it as a target and at what band
            "enemies": [(characters[int(k[1:])].pk, names[k], k in defaults["default_targets"],
                         defaults["default_targets"].get(k, "")) for k in enemies],
            "can_declare": can_act and decl is None and not revealed and phase in ("declare", "choose", "reveal")
            and rules_combat.why_not_acting(state, key) is None,
            # after the reveal, one who took no part is said out by the levels they are at now (a
            # death roll's Incapacitado read "to declare" until the next turn)
            "out": (out := rules_combat.why_not_acting(state, key) if not revealed
                    else (rules_combat.why_not_acting(state, key) or incapacity(health=spec["health"], morale=spec["morale"]))
                    if decl is None else None),
            # why they take no part this turn, for the strip of who is to declare and their own card
            # (a jammed fighter read "to declare", and a dead one did, every turn)
            "out_label": "" if not out else gettext("jammed: loses this turn") if out == "jam"
            else gettext("cannot act (%(level)s)") % {"level": glossary.name("level", out)},
            # a player's declaration waits, visibly, until the NPCs have declared and drawn (FR-CMB-1)
            "waiting_for": [names.get(k, k) for k in waiting] if not spec["is_npc"] else [],
            "mount": spec.get("mount") or "none", "holstered": bool(spec.get("holstered")),
            "cover_label": gettext(COVER_LABELS[spec["cover"]]),
            "mount_label": gettext(MOUNT_LABELS[spec.get("mount") or "none"]) if spec.get("mount") else "",
            "situation": _situation(decl) if decl and decl.get("technique") != "forcejeo" else "",
            "medical": bool(decl) and decl.get("action") == "medical",
            "other_action": bool(decl) and decl.get("action") == "other",
            "patient": names.get((decl or {}).get("patient") or "", ""),
            "fighters": [(characters[int(k[1:])].pk, names[k]) for k in state["combatants"]],
            "dead": spec["health"] == -4,
            "dead_for_good": str(character.pk) in session.tallies.get("dead", {}),
            "death_turns_left": _death_turns_left(session, combat, character.pk),
            "can_death_roll": viewer.is_mayor and spec["health"] == -4 and str(character.pk) not in
            session.tallies.get("dead", {}),
            "death_roll_key": uuid.uuid4().hex,
            "can_draw": can_act and decl is not None and (state["required"].get(key) or 0) > 0 and hand is None,
            # a declaration taken back before its draw, to be declared again (a wrong target ticked)
            "can_take_back": can_act and decl is not None and decl.get("action") != "medical"
            and rules_combat.may_take_back(state, key),
            "take_back_key": uuid.uuid4().hex,  # its form's: a repeat of one submit is one take-back
            # the Mayor drawing for a player's protagonist (a player without a phone): he will see the hand
            "draws_for_player": viewer.is_mayor and not own and character.kind == Character.Kind.PROTAGONIST,
            "can_choose": can_act and holds and bool(hand) and key not in state["plays"] and not revealed,
            "mine": own,
        })
    results = []
    if revealed:
        for rec in state["result"]["plays"]:
            params = {k: (names.get(v, v) if k == "target" else v) for k, v in rec["explain"]["params"].items()}
            results.append({"who": names[rec["attacker"]], "target": names[rec["target"]], "hit": rec["hit"],
                            "card": card_view(rec["card"], rec.get("suit") or ""),
                            "text": render_message(rec["explain"]["template"], params)})
    return {
        "combat": combat, "turn": combat.turn, "phase": phase, "revealed": revealed, "rows": rows,
        "mine": [r for r in rows if r["mine"]], "results": results,
        "can_reveal": viewer.is_mayor and phase == "reveal" and not revealed,
        "can_next": viewer.is_mayor and revealed,
        "waiting": [r["name"] for r in rows if r["declared"] and not r["locked"] and (r["required"] or 0) > 0
                    and not revealed],
    }


def _technique_suit(decl) -> str | None:
    """The suit that hits with the declared technique (FR-CMB-4, 5); none for a grapple's contest."""
    technique = (decl or {}).get("technique")
    if technique not in rules_combat.TECHNIQUE_CHECK or technique == rules_combat.GRAPPLE:
        return None
    return TRAIT_SUIT[rules_combat.TECHNIQUE_CHECK[technique][0]]


def _hand_reads(cards: list[dict], decl) -> list[dict]:
    """Each card of a fighter's hand with whether it hits if played (FR-CMB-5: the technique's suit
    hits, anything else misses; a joker takes that suit, FR-CARD-2), for the one who chooses: a walk
    through a fight found a player who learnt which suit hits only from the reveal."""
    suit = _technique_suit(decl)
    if suit is None:
        return cards
    read = []
    for card in cards:
        hits = card["is_joker"] or Card.from_uid(card["uid"]).suit == suit
        read.append({**card, "reads": gettext("hits") if hits else gettext("misses"),
                     "reads_css": "success" if hits else "failure"})
    return read


def _counts(decl) -> str:
    """Which suit hits, for the one who chooses ("♣ hits (Apuntar)")."""
    suit = _technique_suit(decl)
    if suit is None:
        return ""
    return gettext("%(suit)s hits (%(technique)s)") % {"suit": SUIT_SYMBOL[suit],
                                                       "technique": glossary.name("technique", decl["technique"])}


def _weapon_options(spec, names) -> list[tuple[str, str, str]]:
    """The declaration form's weapons: each carried weapon's key, its name in the reader's language
    (``names()``: the campaign's catalogue) and the techniques it may be declared with."""
    return [(w["name"], names().get(w["name"], w["name"]), " ".join(_techniques_for(w))) for w in spec["weapons"]]


def _declare_defaults(state, key: str, previous: dict | None, enemies: list[str]) -> dict:
    """Where a fighter's declaration form starts: the attack they declared last turn
    (``previous``, :func:`frontera.rules.combat.next_turn`) at those of its targets who can still
    act, if the engine would take it as the fighter stands now (the weapon still carried, a thrown
    one still in hand, no Apuntar from total cover...: :func:`frontera.rules.combat.attack_refusal`);
    if none of them can, the same attack with no target ticked. With no attack last turn, a form
    valid as it stands: the first weapon carried with the technique that uses it, and that the
    engine takes (FR-CMB-2), else Pelea, unarmed.

    A target is ticked from the start only when it was one last turn, or when it is the only enemy
    still standing. Walks through fights found every turn's form back at the first weapon (an
    unarmed Pelea turned into throwing the knife once its target had fallen), and the first enemy
    ticked for a Mayor who then ticked the one he meant, declaring both."""
    standing = [k for k in enemies if rules_combat.why_not_acting(state, k) in (None, "jam")]  # not out of it
    # last turn's targets still standing, else the only enemy standing, else none
    targets = {k: band for k, band in (previous or {}).get("targets", {}).items() if k in standing}
    targets = targets or dict.fromkeys(standing if len(standing) == 1 else [], "")
    probe = targets or dict.fromkeys(standing[:1] or enemies[:1] or ["(nobody)"], rules_combat.ADYACENTE)
    if previous and previous.get("technique") and rules_combat.attack_refusal(
            state, key, technique=previous["technique"], weapon=previous["weapon"], targets=probe,
            special=previous["special"]) is None:
        return {"default_technique": previous["technique"], "default_weapon": previous["weapon"] or "",
                "default_special": previous["special"] or "", "default_targets": targets}
    for weapon in state["combatants"][key]["weapons"]:
        technique = WEAPON_TECHNIQUE.get(weapon.get("kind"))
        if technique and rules_combat.attack_refusal(state, key, technique=technique, weapon=weapon["name"],
                                                     targets=probe, special=None) is None:
            return {"default_technique": technique, "default_weapon": weapon["name"], "default_special": "",
                    "default_targets": targets}
    return {"default_technique": rules_combat.PELEA, "default_weapon": "", "default_special": "",
            "default_targets": targets}


WEAPON_TECHNIQUE = {"ranged": rules_combat.DISPARO_RAPIDO, "melee": rules_combat.MELEE, "thrown": rules_combat.THROWN}


def _techniques_for(weapon: dict) -> list[str]:
    """The techniques a carried weapon may be declared with (FR-CMB-2, FR-CHAR-5): the phone's
    weapon list shows only those of the chosen technique."""
    techniques = [t for t, kind in rules_combat.TECHNIQUE_WEAPON.items() if kind == weapon.get("kind")]
    if weapon.get("in_hand"):
        techniques.append(rules_combat.MELEE)
    return techniques


def duel_weapons(session: GameSession) -> list[tuple[str, str]]:
    """The ranged weapons someone who may duel carries (protagonists at the session, NPCs and
    minions), each labelled with who carries it, for the Mayor's duel form (FR-CMB-15). Whether
    the chosen duellist carries the chosen one is still the service's to say."""
    catalogue = campaign_catalogue(session.campaign)
    names_of = {i.key: i.display_name for i in CatalogueItem.objects.filter(campaign=session.campaign)}
    seated = set(Seat.objects.filter(session=session).values_list("character_id", flat=True))
    carriers: dict[str, list[str]] = {}
    for character in Character.objects.filter(campaign=session.campaign).order_by("kind", "name"):
        if character.kind == Character.Kind.PROTAGONIST and character.pk not in seated:
            continue
        equipment = (character.sheet or {}).get("equipment") or {}
        for key in equipment:
            entry = catalogue.get(key)
            if entry and entry.get("category") == "weapon" and entry.get("kind") == "ranged":
                carriers.setdefault(key, []).append(character.name)
    return [(key, f"{names_of.get(key, catalogue[key]['name'])} — {', '.join(names)}") for key, names in carriers.items()]
