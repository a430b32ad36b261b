"""The engines are pure: importing them loads no Django (DESIGN.md, layer 1)."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("package", ["frontera.rules", "cardgames.engines"])
def test_importing_engines_does_not_import_django(package):
    code = (
        "import importlib, pkgutil, sys\n"
        f"pkg = importlib.import_module({package!r})\n"
        "for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.') or m == 'celery')\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
