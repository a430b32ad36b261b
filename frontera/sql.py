"""Names for the few statements written as SQL instead of built by the ORM.

A correlated subquery built as a ``Subquery`` of a queryset is compiled afresh on every request;
on the session pages that cost ~0.3 ms each, on every action and every refetch (issue #11's
profile), and so did building a two-column query asked on every refetch. Those few are written as
SQL (an annotation's :class:`~django.db.models.expressions.RawSQL`, or a statement run by
:func:`rows`) with every table and column name taken from the models' own metadata and quoted by
the database's own rules, and every value passed as a bound parameter.

Rows that become models are loaded by :func:`load`, which does what ``Manager.raw()`` does with
the work that depends only on the statement (which column is which field, and each field's
converters) done once per statement and connection instead of on every run.

Two limits that come with it: a correlated subquery names its outer table itself (a ``Subquery``
would follow Django's aliases), so a queryset annotated with one must not be nested inside another
query of the same table; and :func:`rows` runs on the default database, past any router.
"""

import functools
import re
import threading
from weakref import WeakKeyDictionary

from django.core.exceptions import FieldDoesNotExist
from django.db import DEFAULT_DB_ALIAS, NotSupportedError, connection, connections
from django.db.models.fields import AutoFieldMixin
from django.db.models.sql import Query


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


def columns_as(model, prefix: str) -> str:
    """Every column of ``model``'s table, each named ``<prefix>__<column>``: a related row that
    :func:`load` makes into a model of its own (its ``related``)."""
    quote = connection.ops.quote_name
    return ", ".join(f"{table(model)}.{quote(field.column)} AS {quote(f'{prefix}__{field.column}')}"
                     for field in model._meta.concrete_fields)


# Per connection (one per thread): {(model, related, sql, columns): _Plan}. A converter is a method
# of its connection's operations, so plans are not shared between connections.
_plans: WeakKeyDictionary = WeakKeyDictionary()
_plans_lock = threading.Lock()


class _Plan:
    """How the columns of one statement become models, as ``RawQuerySet`` works it out on every run:
    which columns fill which model's fields (by attname, in the model's order), which are extra
    attributes, and the converters of each column that has any (the backend's and the field's own,
    e.g. a JSON field's decoding)."""

    __slots__ = ("converters", "extras", "models")

    def __init__(self, model, related: tuple, columns: tuple[str, ...], db_connection):
        converter = db_connection.introspection.identifier_converter
        names = [converter(name) for name in columns]
        fields = [None] * len(columns)
        # (attribute, or None for the row's own model; the model; its attnames; their positions; its key's)
        self.models = []
        for attribute, each in ((None, model), *related):
            prefix = "" if attribute is None else f"{attribute}__"
            position_of = {name.removeprefix(prefix): position for position, name in enumerate(names)
                           if name.startswith(prefix) and fields[position] is None
                           and (prefix or "__" not in name)}
            selected = [(field, position_of[field.column]) for field in each._meta.concrete_fields
                        if field.column in position_of]
            attnames = [field.attname for field, _ in selected]
            if any(pk.attname not in attnames for pk in each._meta.pk_fields):
                raise FieldDoesNotExist(f"A statement loaded as {each.__name__} must include its primary key")
            for field, position in selected:
                fields[position] = field
            positions = [position for _, position in selected]
            self.models.append((attribute, each, attnames, positions, positions[attnames.index(each._meta.pk.attname)]))
        self.extras = [(name, position) for position, name in enumerate(columns) if fields[position] is None]
        compiler = db_connection.ops.compiler("SQLCompiler")(Query(model), db_connection, DEFAULT_DB_ALIAS)
        cols = [field.get_col(field.model._meta.db_table) if field is not None else None for field in fields]
        self.converters = list(compiler.get_converters(cols).items())


def load(model, sql: str, params, *, related: dict | None = None) -> list:
    """``model`` instances for the rows of ``sql`` run with ``params`` on the default database, as
    ``model.objects.raw(sql, params)`` loads them: the columns named like the model's fields fill
    them (the primary key must be one; a field not selected is deferred), any other column becomes
    an attribute of that name, and every value goes through its field's converters.

    ``related`` (``{"prueba": Check}``) loads related rows in the same statement, as
    ``select_related`` would: the columns named ``prueba__<column>`` (:func:`columns_as`) make a
    ``Check`` that becomes the instance's ``prueba`` (``None`` where its key is NULL: an outer join
    that found none)."""
    db_connection = connections[DEFAULT_DB_ALIAS]
    with db_connection.cursor() as cursor:
        cursor.execute(sql, params)
        columns = _column_names(cursor)
        found = cursor.fetchall()
    plans = _plans.get(db_connection)
    if plans is None:
        with _plans_lock:
            plans = _plans.setdefault(db_connection, {})
    related = tuple(related.items()) if related else ()
    key = (model, related, sql, columns)
    plan = plans.get(key)
    if plan is None:
        plan = plans[key] = _Plan(model, related, columns, db_connection)
    loaded = []
    for values in found:
        if plan.converters:
            values = list(values)
            for position, (converters, expression) in plan.converters:
                value = values[position]
                for converter in converters:
                    value = converter(value, expression, db_connection)
                values[position] = value
        instance = None
        for attribute, each, attnames, positions, key in plan.models:
            if attribute is None:
                instance = each.from_db(DEFAULT_DB_ALIAS, attnames, [values[i] for i in positions])
            else:  # no related row (an outer join's NULLs): None, as select_related gives
                setattr(instance, attribute, None if values[key] is None else
                        each.from_db(DEFAULT_DB_ALIAS, attnames, [values[i] for i in positions]))
        for name, position in plan.extras:
            setattr(instance, name, values[position])
        loaded.append(instance)
    return loaded


def _column_names(cursor) -> tuple[str, ...]:
    """The names of the columns of ``cursor``'s result. psycopg's ``description`` makes an object of
    each column, ~2 µs each, for a name (a draw's participant is read with its check and character: 50
    columns, ~0.1 ms); its result (``pgresult``, public API) gives the names themselves."""
    result = getattr(getattr(cursor, "cursor", None), "pgresult", None)
    if result is not None:
        encoding = cursor.cursor.connection.info.encoding
        return tuple(result.fname(index).decode(encoding) for index in range(result.nfields))
    return tuple(column[0] for column in cursor.description)


INSERT_BATCH = 50  # rows of one statement where each row's values are listed
# A statement of more bound values than this is parsed again by psycopg every time it runs (it caches
# the conversion of smaller ones, psycopg._queries.MAX_CACHED_STATEMENT_PARAMS, and of statements
# under 4096 characters): on PostgreSQL, when the values a statement would list (its updates', a
# first row's and its new rows') pass it, the new rows' values travel as one array a column instead
# (:func:`_rows_sql`).
LISTED_PARAMS = 50


def insert(objs: list) -> list:
    """``bulk_create(objs)`` for new rows of one model (an action's check, participants, log lines):
    one ``INSERT … RETURNING`` whose SQL is built once per model and number of rows, every value
    prepared by its field as ``bulk_create`` prepares it (an ``auto_now_add`` time, a JSON value);
    each object gets its primary key. No signal is sent, as with ``bulk_create``. On PostgreSQL, rows
    of more than :data:`LISTED_PARAMS` values in all are given as one array a column
    (:func:`_rows_sql`), any number of them in one statement.

    Issue #11: building the ORM's INSERT took ~0.3-0.5 ms an action, before its commit."""
    if not objs:
        return objs
    model = type(objs[0])
    db_connection = connections[DEFAULT_DB_ALIAS]
    if not db_connection.features.can_return_rows_from_bulk_insert:
        return model._default_manager.bulk_create(objs)
    if db_connection.vendor == "postgresql" and _as_arrays(len(objs) * _width(model)):
        sql, fields = _insert_arrays_sql(model)
        _run_insert(objs, sql, _column_params(objs, fields, db_connection), db_connection)
        return objs
    if len(objs) > INSERT_BATCH:  # within every database's limit of bound values a statement
        return insert(objs[:INSERT_BATCH]) + insert(objs[INSERT_BATCH:])
    sql, fields = _insert_sql(model, len(objs), db_connection.vendor)
    _run_insert(objs, sql, _insert_params(objs, fields, db_connection), db_connection)
    return objs


def insert_first(obj, constraint: str) -> bool:
    """``obj``'s row inserted unless a row of its table already holds the values its unique
    ``constraint`` (a name in the model's ``Meta.constraints``) allows once, such as a form's
    ``request_key`` in a session: True when inserted (``obj`` gets its primary key), False when
    that row was there (nothing is written, and the transaction goes on). Any other conflict (the
    primary key, another constraint) raises ``IntegrityError`` as an insert does. One
    ``INSERT … ON CONFLICT (…) WHERE … DO NOTHING RETURNING``, on PostgreSQL as on SQLite: the
    constraint itself tells a repeat, instead of a read of its own before the insert.

    Issue #11: that read was one of the round trips to PostgreSQL before a call's push."""
    db_connection = connections[DEFAULT_DB_ALIAS]
    if not db_connection.features.can_return_rows_from_bulk_insert:
        raise NotSupportedError("insert_first() needs INSERT … RETURNING (PostgreSQL, SQLite)")
    sql, fields = _insert_sql(type(obj), 1, db_connection.vendor, first=constraint)
    return bool(_run_insert([obj], sql, _insert_params([obj], fields, db_connection), db_connection))


def insert_first_with(parent, constraint: str, *groups: list) -> bool:
    """:func:`insert_first` of ``parent``, then :func:`insert` of each list of ``groups`` (each list of
    one model, rows whose foreign keys to ``parent``'s model may name ``parent``, not inserted yet):
    the lists only if ``parent`` was. True when it was (every object gets its primary key, and
    ``parent``'s key in the foreign keys that name it); False when ``constraint`` refused it (nothing
    is written). On PostgreSQL in one statement: the lists' ``INSERT … SELECT`` (:func:`_rows_sql`)
    read ``parent``'s key from its ``INSERT … ON CONFLICT DO NOTHING RETURNING``, a data-modifying
    ``WITH`` (no row of theirs when it inserted none); elsewhere
    :func:`insert_first`, then :func:`insert_together`. A list whose rows do not all name ``parent``
    in the same foreign keys is written that second way too.

    Issue #11: a call's check was a round trip of its own before its participants and log lines,
    ahead of its push."""
    groups = tuple(group for group in groups if group)
    db_connection = connections[DEFAULT_DB_ALIAS]
    linked = tuple(_naming(group, parent) for group in groups)
    if db_connection.vendor != "postgresql" or any(names is None for names in linked):
        if not insert_first(parent, constraint):
            return False
        insert_together(*groups)
        return True
    arrays = _as_arrays(_width(type(parent)) + sum(len(group) * (_width(type(group[0])) - len(names))
                                                    for group, names in zip(groups, linked, strict=True)))
    shape = (type(parent), constraint, tuple((type(group[0]), None if arrays else len(group), names)
                                             for group, names in zip(groups, linked, strict=True)))
    sql, parent_fields, valued = _first_with_sql(shape)
    params = _insert_params([parent], parent_fields, db_connection)
    for group, fields, names in zip(groups, valued, linked, strict=True):
        others = [field for field in type(group[0])._meta.concrete_fields if field.name not in names]
        if arrays:
            params += _column_params(group, fields, db_connection, related=others)
        else:
            params += [value for row in _prepared_rows(group, fields, db_connection, related=others) for value in row]
    with db_connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    keys = [key for tag, key in found if tag == -1]
    if not keys:  # the constraint refused it: its lists inserted nothing either
        return False
    _set_keys([parent], keys)
    for index, (group, names) in enumerate(zip(groups, linked, strict=True)):
        for obj in group:
            for name in names:
                setattr(obj, name, parent)  # its key now, and the parent kept as the row's (as the ORM does)
        _set_keys(group, [key for tag, key in found if tag == index])
    return True


def _naming(group: list, parent) -> tuple[str, ...] | None:
    """The foreign keys (names) of ``group``'s model to ``parent``'s that name ``parent`` in every row
    of ``group``; ``None`` if some rows name it in one and others not."""
    names = None
    for obj in group:
        mine = tuple(field.name for field in type(obj)._meta.concrete_fields
                     if field.is_relation and field.related_model is type(parent)
                     and field.is_cached(obj) and field.get_cached_value(obj) is parent)
        if names is not None and mine != names:
            return None
        names = mine
    return names


@functools.cache
def _first_with_sql(shape) -> tuple[str, list, list]:
    """The statement of :func:`insert_first_with` for ``(parent's model, constraint, lists)``, each list
    ``(model, rows or None, the foreign keys naming the parent)``: the parent's key tagged ``-1``, each
    list's keys tagged with its position (rising in the order of its rows, as :func:`insert` relies
    on); the fields the parent prepares, and those each list's rows prepare (all but the ones naming
    it): :func:`_rows_sql` of ``rows`` rows, or arrays for ``None``."""
    parent_model, constraint, groups = shape
    quote = connection.ops.quote_name
    parent_sql, parent_fields = _insert_sql(parent_model, 1, "postgresql", first=constraint)
    parent_key = quote(parent_model._meta.pk.column)
    first = '"first"'
    parts, selects, valued = [f'{first} AS ({parent_sql})'], [f'SELECT -1, {parent_key} FROM {first}'], []
    for n, (model, count, names) in enumerate(groups):
        meta = model._meta
        fields = [field for field in meta.concrete_fields if field is not meta.pk]
        values = [field for field in fields if field.name not in names]
        taken = iter(range(len(values)))
        picked = [f'{first}.{parent_key}' if field.name in names else f'"v"."c{next(taken)}"' for field in fields]
        key = quote(meta.pk.column)
        parts.append(f'"rows_{n}" AS (INSERT INTO {table(model)} ({", ".join(quote(f.column) for f in fields)}) '
                     f'{_rows_sql(values, count, picked, joined=first)} RETURNING {key})')
        selects.append(f'SELECT {n}, {key} FROM "rows_{n}"')
        valued.append(values)
    return f"WITH {', '.join(parts)} {' UNION ALL '.join(selects)} ORDER BY 1, 2", parent_fields, valued


def _rows_sql(fields: list, count: int | None, picked: list[str] | None = None, *, joined: str = "") -> str:
    """A ``SELECT`` of new rows' values, in the order of the rows: ``"v"."c0"``, ``"v"."c1"``… the
    values of ``fields``, each cast to its column's type (:func:`_cast_type`; a value in ``VALUES``
    has no column to take its type from: a list's ``NULL`` would be text). ``count`` rows listed in
    a ``VALUES`` (a parameter each value), or, for ``None``, one array parameter a field, unnested
    together. ``picked``: what the ``SELECT`` gives (all of them by default); ``joined``: a table each
    row is joined to.

    Issue #11: listed, a revealed fight's 21 log lines were 273 parameters, and psycopg parses a
    statement of more than :data:`LISTED_PARAMS` again each time it runs, ~1.2 ms of the reveal's.
    As arrays a statement takes one parameter a column whatever its rows, and is the same text each
    time (psycopg's cache and PostgreSQL's prepared statement serve it); for a few rows the listed
    form is the quicker (~0.15 ms a statement: no array to build or unnest)."""
    picked = picked or [f'"v"."c{index}"' for index in range(len(fields))]
    source = f"{joined} CROSS JOIN " if joined else ""
    aliases = ", ".join(f'"c{index}"' for index in range(len(fields)))
    if count is None:
        arrays = ", ".join(f"CAST(%s AS {_cast_type(field)}[])" for field in fields)
        rows = f'unnest({arrays}) WITH ORDINALITY AS "v" ({aliases}, "n")'
    else:
        row = ", ".join(f"CAST(%s AS {_cast_type(field)})" for field in fields)
        rows = f'(VALUES {", ".join(f"({index}, {row})" for index in range(count))}) AS "v" ("n", {aliases})'
    return f'SELECT {", ".join(picked)} FROM {source}{rows} ORDER BY "v"."n"'


def _width(model) -> int:
    """The values a new row of ``model`` takes (every column but its key)."""
    return len(model._meta.concrete_fields) - 1


def _as_arrays(values: int) -> bool:
    """Whether a PostgreSQL statement of ``values`` values of new rows gives them as arrays."""
    return values > LISTED_PARAMS


def _cast_type(field) -> str:
    """The type a value of ``field``'s is cast to in :func:`_rows_sql`: its column's, but
    ``text`` for a ``varchar(n)``, whose cast would cut a longer value short where an ``INSERT``
    refuses it; the insert then refuses it as it refuses any over-long value."""
    db_type = field.db_type(connection)
    return "text" if re.fullmatch(r"(varchar|character varying)\(\d+\)", db_type) else db_type


def insert_together(*groups: list) -> None:
    """:func:`insert` for several lists of new rows, each list of one model, no row referring to a
    row of another list (an action's new participants and its log lines): on PostgreSQL in one
    statement, a data-modifying ``WITH`` for each list; elsewhere one :func:`insert` each. Every
    object gets its primary key (:func:`write_together` with no update).

    Issue #11: each statement was a round trip to PostgreSQL before a call's push."""
    write_together([], *groups)


def _prepared_rows(objs: list, fields: list, db_connection, *, related: list | None = None) -> list[list]:
    """The values of ``objs``' ``fields``, a list per object, as ``bulk_create`` prepares them.
    ``related``: the foreign keys checked first (all by default)."""
    rows = []
    for obj in objs:
        obj._prepare_related_fields_for_save(operation_name="insert", fields=related)
        rows.append([field.get_db_prep_save(field.pre_save(obj, True), db_connection) for field in fields])
    return rows


def _insert_params(objs: list, fields: list, db_connection) -> list:
    """:func:`_prepared_rows` listed, row after row."""
    return [value for row in _prepared_rows(objs, fields, db_connection) for value in row]


def _column_params(objs: list, fields: list, db_connection, *, related: list | None = None) -> list[list]:
    """:func:`_prepared_rows` as arrays (:func:`_rows_sql`) take them: one list per field, of its
    value in each of ``objs``."""
    rows = _prepared_rows(objs, fields, db_connection, related=related)
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in fields]


def _set_keys(objs: list, keys: list) -> None:
    pk = objs[0]._meta.pk  # an auto field: the integer as the database returns it
    for obj, key in zip(objs, keys, strict=True):
        setattr(obj, pk.attname, key)
        obj._state.adding = False
        obj._state.db = DEFAULT_DB_ALIAS


def _run_insert(objs: list, sql: str, params: list, db_connection) -> list:
    """Runs an insert's statement of ``objs`` with ``params``; each row inserted gives its object its
    key. The objects inserted are returned (all of them, but for a row ``ON CONFLICT`` skipped)."""
    with db_connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = [row[0] for row in cursor.fetchall()]
    if len(keys) < len(objs):  # insert_first: its one row was skipped
        return []
    _set_keys(objs, keys)
    return objs


@functools.cache
def _insert_sql(model, count: int, vendor: str, *, first: str = "") -> tuple[str, list]:
    """``first``: a unique constraint's name; the row it refuses is skipped (:func:`insert_first`)."""
    meta = model._meta
    assert isinstance(meta.pk, AutoFieldMixin), "insert() is for models whose key the database makes"
    assert count == 1 or not first, "insert_first() inserts one row"
    fields = [field for field in meta.concrete_fields if field is not meta.pk]
    quote = connection.ops.quote_name
    row = f"({', '.join(['%s'] * len(fields))})"
    skip = f" ON CONFLICT {_conflict_target(model, first)} DO NOTHING" if first else ""
    sql = (f"INSERT INTO {table(model)} ({', '.join(quote(field.column) for field in fields)}) "
           f"VALUES {', '.join([row] * count)}{skip} RETURNING {quote(meta.pk.column)}")
    return sql, fields


@functools.cache
def _insert_arrays_sql(model) -> tuple[str, list]:
    """:func:`_insert_sql` on PostgreSQL, for any number of rows: one array parameter per field
    (:func:`_rows_sql`), rows given keys in the order of their elements."""
    meta = model._meta
    assert isinstance(meta.pk, AutoFieldMixin), "insert() is for models whose key the database makes"
    fields = [field for field in meta.concrete_fields if field is not meta.pk]
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {table(model)} ({', '.join(quote(field.column) for field in fields)}) "
           f"{_rows_sql(fields, None)} RETURNING {quote(meta.pk.column)}")
    return sql, fields


def _conflict_target(model, name: str) -> str:
    """``(columns) WHERE condition``: the unique index of ``model``'s constraint ``name``, written as
    its migration wrote it (a partial index is matched only by its own condition)."""
    [constraint] = [c for c in model._meta.constraints if c.name == name]
    quote = connection.ops.quote_name
    target = f"({', '.join(quote(model._meta.get_field(f).column) for f in constraint.fields)})"
    if constraint.condition is None:
        return target
    # the SQL Django's schema editor gives the index's condition; the editor is only asked to
    # write it (not entered: no schema is changed)
    return f"{target} WHERE {constraint._get_condition_sql(model, connection.SchemaEditorClass(connection))}"


def write_together(updates: list[tuple[object, tuple[str, ...]]], *groups: list) -> None:
    """:func:`update` of each ``(instance, fields)`` of ``updates`` (each a different row), then
    :func:`insert` of each list of ``groups`` (each list of one model, no row referring to a row of
    another list): on PostgreSQL in one statement, a data-modifying ``WITH``
    for each update and each list (PostgreSQL runs every one of them once, whether the statement
    reads its rows or not); elsewhere one statement each. A row that is not there to update raises
    its model's ``DoesNotExist``, as :func:`update` does (inside a transaction, which undoes the rest:
    the services' actions are atomic). Every new object gets its primary key.

    Issue #11: a draw's state, participant, log lines and check were four round trips to PostgreSQL
    before its push, each a wait for the answer and for the GIL again after it."""
    groups = tuple(group for group in groups if group)
    if len({(type(instance), instance.pk) for instance, _fields in updates}) != len(updates):
        # one statement's WITHs that update one row twice: PostgreSQL applies one of them, either one
        raise ValueError("write_together() updates each row once")
    db_connection = connections[DEFAULT_DB_ALIAS]
    if len(updates) + len(groups) < 2 or db_connection.vendor != "postgresql":
        for instance, fields in updates:
            update(instance, fields)
        for group in groups:
            insert(group)
        return
    arrays = _as_arrays(sum(len(fields) + 1 for _instance, fields in updates)
                        + sum(len(group) * _width(type(group[0])) for group in groups))
    shape = (tuple((type(instance), tuple(fields)) for instance, fields in updates),
             tuple((type(group[0]), None if arrays else len(group)) for group in groups))
    sql, prepared_updates, prepared_inserts = _write_together_sql(shape)
    params = []
    for (instance, _fields), prepared in zip(updates, prepared_updates, strict=True):
        params += [field.get_db_prep_save(field.pre_save(instance, False), db_connection) for field in prepared]
        params.append(instance.pk)
    for group, group_fields in zip(groups, prepared_inserts, strict=True):
        params += (_column_params if arrays else _insert_params)(group, group_fields, db_connection)
    with db_connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    for index, (instance, _fields) in enumerate(updates):
        if [key for tag, key in found if tag == -1 - index] != [instance.pk]:
            model = type(instance)
            raise model.DoesNotExist(f"{model.__name__} {instance.pk} is not there to update")
    for index, group in enumerate(groups):  # each list's keys in the order of its rows
        _set_keys(group, [key for tag, key in found if tag == index])


@functools.cache
def _write_together_sql(shape) -> tuple[str, list, list]:
    """The statement of :func:`write_together` for ``(updates, inserts)``: each update a ``WITH``
    returning its row's key, tagged ``-1 - n``; each list of new rows one returning theirs, tagged
    with its position (a sequence gives a statement's rows rising keys in the order they are
    inserted, as :func:`insert` relies on): ``(model, rows)`` listed in a ``VALUES``, or
    ``(model, None)`` as arrays (:func:`_rows_sql`). Also the fields each update and each list
    prepare."""
    updates, inserts = shape
    quote = connection.ops.quote_name
    pieces = [(f"updated_{n}", -1 - n, model, *_update_sql(model, fields, "postgresql"))
              for n, (model, fields) in enumerate(updates)]
    pieces += [(f"rows_{n}", n, model, *(_insert_arrays_sql(model) if count is None else
                                         _insert_sql(model, count, "postgresql")))
               for n, (model, count) in enumerate(inserts)]
    parts, selects = [], []
    for name, tag, model, sql, _fields in pieces:
        key = quote(model._meta.pk.column)
        returning = f" RETURNING {key}" if tag < 0 else ""  # (an INSERT returns its keys already)
        parts.append(f"{quote(name)} AS ({sql}{returning})")
        selects.append(f"SELECT {tag}, {key} FROM {quote(name)}")
    sql = f"WITH {', '.join(parts)} {' UNION ALL '.join(selects)} ORDER BY 1, 2"
    return sql, [fields for _n, tag, *_rest, fields in pieces if tag < 0], [
        fields for _n, tag, *_rest, fields in pieces if tag >= 0]


def update(instance, fields: tuple[str, ...]) -> None:
    """``instance.save(update_fields=fields)`` for a row that exists: one ``UPDATE`` whose SQL is
    built once per model and fields, every value prepared by its field as ``save`` prepares it. No
    signal is sent (no receiver listens to the session's models).

    Issue #11: building the ORM's UPDATE took ~0.2-0.3 ms each, two or three times an action."""
    model = type(instance)
    db_connection = connections[DEFAULT_DB_ALIAS]
    sql, prepared = _update_sql(model, tuple(fields), db_connection.vendor)
    params = [field.get_db_prep_save(field.pre_save(instance, False), db_connection) for field in prepared]
    with db_connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])
        if cursor.rowcount != 1:
            raise model.DoesNotExist(f"{model.__name__} {instance.pk} is not there to update")


@functools.cache
def _update_sql(model, fields: tuple[str, ...], vendor: str) -> tuple[str, list]:
    meta = model._meta
    prepared = [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in prepared)
    return f"UPDATE {table(model)} SET {assignments} WHERE {quote(meta.pk.column)} = %s", prepared
