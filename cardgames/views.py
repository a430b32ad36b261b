"""The bonus tables. For now: the list of games and each game's page; tables come with the
card-game tables issue."""

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from cardgames.engines import ENGINE_NAMES

GAMES = {
    "pocobot": {"title": "PoCoBOT", "blurb": _("A duel of poker-card mechas for two.")},
    "palmera": {"title": "En la palmera", "blurb": _("Hidden placements on ten squares, for two.")},
    "boom": {"title": "Boom", "blurb": _("Attack your rivals' life storages, for two to four.")},
    "nismatch": {"title": "Nismatch", "blurb": _("A trading-card duel of mecha Units.")},
}
assert set(GAMES) == set(ENGINE_NAMES)


@require_GET
def index(request):
    return render(request, "cardgames/index.html", {"games": [{"name": n, **GAMES[n]} for n in ENGINE_NAMES]})


@require_GET
def game_rules(request, name: str):
    if name not in GAMES:
        raise Http404
    return render(request, "cardgames/game.html", {"game": {"name": name, **GAMES[name]}})
