"""Names for the few statements written as SQL instead of built by the ORM.

A correlated subquery built as a ``Subquery`` of a queryset is compiled afresh on every request;
on the session pages that cost ~0.3 ms each, on every action and every refetch (issue #11's
profile), and so did building a two-column query asked on every refetch. Those few are written as
SQL (an annotation's :class:`~django.db.models.expressions.RawSQL`, or a statement run by
:func:`rows`) with every table and column name taken from the models' own metadata and quoted by
the database's own rules, and every value passed as a bound parameter.

Two limits that come with it: a correlated subquery names its outer table itself (a ``Subquery``
would follow Django's aliases), so a queryset annotated with one must not be nested inside another
query of the same table; and :func:`rows` runs on the default database, past any router.
"""

from django.db import connection


def rows(sql: str, params) -> list[tuple]:
    """Every row of ``sql`` run with ``params`` on the default database."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def table(model) -> str:
    """``model``'s table, quoted."""
    return connection.ops.quote_name(model._meta.db_table)


def column(model, field: str, *, qualified: bool = True) -> str:
    """``model``'s column for ``field`` (``"pk"`` for its primary key), quoted, and prefixed with its
    table unless ``qualified`` is false."""
    meta = model._meta
    name = connection.ops.quote_name((meta.pk if field == "pk" else meta.get_field(field)).column)
    return f"{table(model)}.{name}" if qualified else name
