# Shared by scripts/run and scripts/test: find Python 3.13, make .venv, install what changed.
# Sourced, not run. Prints what it does.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

find_python() {
  local want; want="$(cat .python-version)"
  for candidate in "python$want" "$HOME/.pyenv/versions/$want"*/bin/python "/usr/bin/python$want" "/usr/local/bin/python$want"; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "import sys; sys.exit(sys.version_info[:2] != tuple(map(int, '$want'.split('.'))))" 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  if command -v pyenv >/dev/null 2>&1; then
    local p; p="$(pyenv prefix "$want" 2>/dev/null || true)"
    [ -n "$p" ] && [ -x "$p/bin/python" ] && { echo "$p/bin/python"; return 0; }
  fi
  return 1
}

if [ ! -x .venv/bin/python ]; then
  PY="$(find_python)" || { echo "Python $(cat .python-version) is needed (see .python-version)." >&2; exit 1; }
  say "Creating .venv with $PY"
  "$PY" -m venv .venv
fi
PYTHON="$ROOT/.venv/bin/python"

REQ_STAMP=".venv/.requirements.sha256"
REQ_HASH="$(cat requirements/*.txt | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$REQ_STAMP" 2>/dev/null || true)" != "$REQ_HASH" ]; then
  say "Installing requirements/dev.txt into .venv"
  "$PYTHON" -m pip install --quiet --upgrade pip
  "$PYTHON" -m pip install --quiet -r requirements/dev.txt
  echo "$REQ_HASH" > "$REQ_STAMP"
else
  say "Requirements already installed (.venv is up to date)"
fi

say "Compiling translations (locale/*.po → .mo)"
if command -v msgfmt >/dev/null 2>&1; then "$PYTHON" manage.py compilemessages --ignore=.venv -v 0; else echo "   (no msgfmt here: using the committed .mo files)"; fi
mkdir -p var  # also in the repository (var/.gitkeep), so a fresh clone runs any command
