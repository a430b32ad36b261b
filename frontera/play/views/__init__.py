"""Session pages, one module per family of table actions (the same names as
:mod:`frontera.play.services` and :mod:`frontera.play.forms`). Thin: parse, ask permissions, call
a service or a selector, render. :mod:`~frontera.play.views.common` holds the page plumbing they
share; :mod:`~frontera.play.views.history` serves the session's history and exports. This package
re-exports nothing: ``frontera/play/urls.py`` names each view by its module."""
