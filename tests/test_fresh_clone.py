"""A fresh clone runs any management command on the embedded default (issue #9): the SQLite
folder ``var/`` is part of the repository, not made by ``scripts/run``."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_manage_py_check_works_in_a_fresh_clone(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH", "REDIS_URL")}
    result = subprocess.run([sys.executable, "manage.py", "check", "--database", "default"], cwd=clone, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "unable to open database file" not in result.stderr
