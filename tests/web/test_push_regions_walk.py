"""Issue #11: a push names, for each page, every region of it that the action changed.

A random walk of checks (calls, draws by the player or the Mayor, plays, withdrawals) in each mode,
from phase 1 into phase 2 (FR-MODE-4, FR-MODE-5, FR-MODE-7) and with phase 1 skipped: after each
action, every phone's own characters (``me``), table zones (``zones``) and checks, and the Mayor's
table (``board``), are rendered again and compared with what they showed before. A region that
changed must be among those the action's push names for that viewer (a scoped ``me:<seat>`` only
for the seat's player, ``frontera.play.views.pushed.shown_regions``); a push that names none
refreshes every region. The cached articles (another player's open check, a resolved one) must be
what a fresh rendering shows.
"""

import random
import re

import pytest
from django.core.cache import caches
from django.test import Client

from frontera.live import bus
from frontera.play.models import Check, Participant
from frontera.play.selectors.core import viewer_for
from frontera.play.services.check_withdrawal import check_withdraw
from frontera.play.services.checks import check_choose, check_draw, check_request
from frontera.play.services.core import SessionError
from frontera.play.views.common import PHONE_FRAGMENTS
from frontera.play.views.pushed import shown_regions
from tests.factories import engine, make_table

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
PHONE_REGIONS = ("me", "zones", "checks", "table")


def _fragment(client, session, name: str) -> str:
    html = client.get(session.get_absolute_url(), {"fragment": name}, **HX).text
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)  # masked anew each time
    return re.sub(r'name="request_key" value="[0-9a-f]{16}-', 'name="request_key" value="-', html)


def _regions(client, session, names: str) -> str:
    """What a page's refetch after a push (or the push itself) is sent: the regions out of band."""
    return client.get(session.get_absolute_url(), {"regions": names}, **HX).text


def _act(rng, session, mayor, owner, characters) -> None:
    """One action, chosen at random among those the table allows now."""
    open_ones = list(Participant.objects.filter(prueba__session=session).exclude(status=Check.Status.RESOLVED)
                     .select_related("character", "prueba"))
    requested = [p for p in open_ones if p.status == Check.Status.REQUESTED]
    drawn = [p for p in open_ones if p.status == Check.Status.DRAWN]
    kind = rng.choice(["call"] + ["draw"] * 3 * bool(requested) + ["choose"] * 3 * bool(drawn)
                      + ["withdraw"] * bool(open_ones))
    if kind == "call":
        check_request(session=session, by=mayor, characters=rng.sample(characters, rng.randint(1, 2)),
                      trait=rng.choice(["manos", "cabeza"]))
    elif kind == "draw":
        participant = rng.choice(requested)
        by = owner.get(participant.character_id, mayor) if rng.random() < 0.7 else mayor  # the Mayor draws too
        check_draw(participant=participant, by=by)
    elif kind == "choose":
        participant = rng.choice(drawn)
        check_choose(participant=participant, by=participant.drawn_by, card=rng.choice(participant.drawn), suit="S")
    else:
        check_withdraw(prueba=rng.choice(open_ones).prueba, by=mayor)


@pytest.mark.parametrize(("mode", "skip_phase_1", "seed"), [
    ("normal", False, 0), ("normal", False, 3), ("normal", True, 1), ("con_desgaste", False, 2),
    ("sin_gestion", False, 3)])
def test_fr_mode_4_5_7_every_region_an_action_changes_is_named_for_its_viewer(
        monkeypatch, django_capture_on_commit_callbacks, mode, skip_phase_1, seed):
    session, mayor, seated, minions = make_table(players=3, minions=1, mode=mode,
                                                 **({"skip_phase_1": True} if skip_phase_1 else {}))
    rng = random.Random(seed)
    phones = {}
    for user, _hero in seated:
        phones[user] = Client()
        phones[user].force_login(user)
    table = Client()
    table.force_login(mayor)
    owner = {hero.pk: user for user, hero in seated}
    characters = [hero for _user, hero in seated] + minions
    published = []
    monkeypatch.setattr(bus, "publish", lambda topic, version, regions=None, actor=None: published.append(regions))

    def shown_now() -> dict:
        regions = {(user.pk, name): _fragment(phone, session, name) for user, phone in phones.items()
                   for name in PHONE_REGIONS}
        regions["board"] = _fragment(table, session, "board")
        return regions

    phases, checked = set(), 0
    for step in range(40):
        before = shown_now()
        published.clear()
        try:
            with django_capture_on_commit_callbacks(execute=True):
                _act(rng, session, mayor, owner, characters)
        except SessionError:  # refused (an empty deck, say): nothing changed
            continue
        phases.add(engine(session).phase)
        after = shown_now()
        if any(regions is None for regions in published):
            continue  # every region refreshes
        named = {region for regions in published for region in regions}
        checked += 1
        for user, _hero in seated:
            seats = viewer_for(session, user).seats
            shown = shown_regions(named, PHONE_FRAGMENTS, lambda seats=seats: seats)
            for name in PHONE_REGIONS:
                if before[(user.pk, name)] != after[(user.pk, name)]:
                    assert name in shown, (step, user.pk, name, sorted(named))
        if before["board"] != after["board"]:
            assert "board" in named, (step, sorted(named))
        for phone in phones.values():  # a cached article is what a fresh rendering shows
            cached = _fragment(phone, session, "checks")
            caches["feed"].clear()
            assert cached == _fragment(phone, session, "checks"), step
        kept = {user: _regions(phone, session, "table") for user, phone in phones.items()}
        caches["feed"].clear()  # the others' open checks kept for the same open checks of one's own
        for user, phone in phones.items():
            assert kept[user] == _regions(phone, session, "table"), step
            assert kept[user] == _regions(phone, session, "table"), step  # and read back from the cache
    assert checked >= 20, checked  # the walk did check named pushes, not only refreshes
    if mode == "normal" and not skip_phase_1:
        assert 1 in phases
