"""Each bonus game's table page on a phone (390x844): the board drawn for the seat, in Spanish,
nothing wider than the screen, the whole page axe-core clean, a screenshot per game.

The tables are built through the services and played a few plies with seeded random legal moves,
so every board shows a position in progress."""

import subprocess
import sys

import pytest

from tests.browser.conftest import SCREENSHOTS, assert_accessible
from tests.factories import PASSWORD
from tests.servers import ROOT

pytestmark = pytest.mark.browser

SETUP = """
import random
from cardgames import services
from cardgames.engines import get
from cardgames.models import Table
from tests.factories import make_user
ana, bruno, carmen = make_user("ana_cg"), make_user("bruno_cg"), make_user("carmen_cg")
users = {0: ana, 1: bruno, 2: carmen}
PLIES = {"pocobot": 30, "palmera": 9, "boom": 12, "nismatch": 40}
for game, plies in PLIES.items():
    seats = 3 if game == "boom" else 2
    table, token = services.table_create(game=game, by=ana, seats=seats, seed=11)
    for user in list(users.values())[1:seats]:
        services.table_join(table=Table.objects.get(pk=table.pk), by=user, token=token)
    engine, rng = get(game), random.Random(5)
    for _ in range(plies):
        table = Table.objects.get(pk=table.pk)
        state = engine.from_json(table.state)
        if not engine.to_move(state):
            break
        seat = engine.to_move(state)[0]
        services.table_move(table=table, action=rng.choice(engine.legal_actions(state, seat)), ply=table.ply,
                            by=users[seat])
    print(game, table.pk)
"""

# What a player must see on each board, in the game's own (Spanish) words.
EXPECTED = {
    "pocobot": ["Proyectiles", "Defensa", "Armadura", "Combustible", "Piloto"],
    "palmera": ["Percha", "gana los empates"],
    "boom": ["vida"],
    "nismatch": ["Cabeza", "Torso", "Taller Alfa", "Botines"],
}


def log_in(page, username):
    page.goto("/cuentas/entrar/")
    page.get_by_label("Nombre de usuario").fill(username)
    page.get_by_label("Contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_load_state()


def test_each_games_board_on_a_phone(app_server, phone):
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=app_server.env,
                         check=True, capture_output=True, text=True).stdout
    tables = dict(line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0] in EXPECTED)
    assert set(tables) == set(EXPECTED)
    page = phone()
    log_in(page, "ana_cg")
    for game, pk in tables.items():
        page.goto(f"/mesas/mesa/{pk}/")
        board = page.get_by_test_id("board")
        board.wait_for()
        text = board.inner_text().lower()  # (zone names are upper case by CSS)
        for word in EXPECTED[game]:
            assert word.lower() in text, (game, word)
        # the seat's own side is drawn, and nothing is wider than the phone
        assert page.locator(".cg-you, .cg-palmera").count() >= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, game
        page.screenshot(path=str(SCREENSHOTS / f"cardgames-{game}.png"), full_page=True)
        assert_accessible(page, f"cardgames-{game}")  # the whole table page, board included
