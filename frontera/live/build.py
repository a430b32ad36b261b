"""Which build of the pages this process serves, so that a page rendered by an earlier deploy
learns it and reloads itself (issue #11: a session page's regions are named by the server that
renders them; a page kept open across a deploy could otherwise miss a region the new code added).

Every stream says it in its ``hello`` (sent at each connection and reconnection: a deploy restarts
the processes, and every page's stream connects again), and the session pages carry the build they
were rendered by (``data-build``, ``static/js/live-regions.js``).
"""

import hashlib
from functools import cache

from django.conf import settings

# what the pages are made of: a change to any of them is a new build
_SOURCES = (("frontera", (".py",)), ("templates", (".html",)), ("static", (".js", ".css")))


@cache
def build_id() -> str:
    """``settings.LIVE_BUILD`` (``FRONTERA_BUILD``: a deployment may name its builds, say by their
    commit), or a digest of the project's code, templates and static files as this process found
    them at its first call (a server's at its start, ``frontera/asgi.py``; ~16 ms): the same for
    every process started from the same files. (Templates are read when first used: an old process
    still running while a deploy replaces the files may render a new template under its old build;
    its pages then reload once more than needed, never less.)"""
    if settings.LIVE_BUILD:
        return settings.LIVE_BUILD
    digest = hashlib.sha256()
    root = settings.BASE_DIR
    for folder, suffixes in _SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in suffixes and path.is_file():
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
