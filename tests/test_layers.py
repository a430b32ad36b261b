"""The apps depend in one direction only, and the web apps' modules stay small (docs/architecture.md).

Imports are read from the source with ``ast``, including those inside functions, so a cycle cannot
hide behind a late import. ``frontera.rules`` (the pure engine, tested by test_purity) and
``frontera.messages``, ``frontera.glossary`` and ``frontera.sql`` are helpers every layer may use.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Each app and the apps it may import (its own layer and below). Top to bottom:
#   demo > play, cardgames > characters > campaigns > accounts, live
ALLOWED = {
    "accounts": set(),
    "live": set(),
    "campaigns": {"accounts", "live"},
    "characters": {"campaigns", "accounts", "live"},
    "play": {"characters", "campaigns", "accounts", "live"},
    "cardgames": {"campaigns", "accounts", "live"},
    "demo": {"play", "cardgames", "characters", "campaigns", "accounts", "live"},
}
HELPERS = {"rules", "messages", "glossary", "sql"}  # frontera.rules, .messages, .glossary, .sql: no app of their own
MAX_LINES = 600


def _app_of_file(path: Path) -> str | None:
    parts = path.relative_to(ROOT).parts
    if parts[0] == "cardgames":
        return "cardgames"
    if parts[0] == "frontera" and len(parts) > 2 and parts[1] in ALLOWED:
        return parts[1]
    return None


def _app_of_module(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "cardgames":
        return "cardgames"
    if parts[0] == "frontera" and len(parts) > 1:
        if parts[1] in HELPERS:
            return None
        return parts[1] if parts[1] in ALLOWED else f"frontera.{parts[1]}"
    return None


def _app_files():
    for base in (ROOT / "frontera", ROOT / "cardgames"):
        for path in sorted(base.rglob("*.py")):
            if "migrations" in path.parts or _app_of_file(path) is None:
                continue
            yield path


def _imports(path: Path):
    """(line, module) for every import in ``path``, at any depth; relative imports resolved."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1]) if path.is_relative_to(ROOT) else ""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([module] if module else []))
            yield node.lineno, module


def _dependencies() -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for path in _app_files():
        app = _app_of_file(path)
        for line, module in _imports(path):
            target = _app_of_module(module)
            if target and target != app:
                found.setdefault((app, target), []).append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return found


def test_apps_import_only_the_layers_below_them():
    """accounts and live at the bottom, then campaigns, characters, play (cardgames beside play),
    and demo on top: a lower app never imports a higher one, not even inside a function."""
    wrong = [
        where
        for (app, target), places in sorted(_dependencies().items())
        if target not in ALLOWED[app]
        for where in places
    ]
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_there_is_no_import_cycle_between_the_apps():
    graph: dict[str, set[str]] = {}
    for app, target in _dependencies():
        graph.setdefault(app, set()).add(target)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    cycles = sorted(app for app in graph if reaches(app, app, {app}))
    assert not cycles, f"apps on an import cycle: {cycles}"


def test_the_layering_check_sees_imports_inside_functions(tmp_path):
    """The checker itself: a late import is an import."""
    source = tmp_path / "late.py"
    source.write_text("def f():\n    from frontera.play.services.death import sheet_edited\n")
    assert list(_imports(source)) == [(2, "frontera.play.services.death")]


def test_no_web_app_module_is_over_600_lines():
    """Issue #9: modules of the web apps (the engines in cardgames/engines and frontera/rules, and
    migrations, aside) stay readable."""
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text().splitlines())
        for path in _app_files()
        if "engines" not in path.relative_to(ROOT).parts
    }
    assert len(sizes) > 50  # the walk found the apps
    too_long = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines: {too_long}"
