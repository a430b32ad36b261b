"""Forms of the table, one module per family of table actions (the same names as
:mod:`frontera.play.services` and :mod:`frontera.play.views`). They only parse and validate input;
the services decide the rules. This package re-exports nothing."""
