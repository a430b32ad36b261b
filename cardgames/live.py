"""The table page's live topic: ``table:<id>``, followed by whoever may see the table (its seated
people, and the campaign's members when the table is open to them). A push carries only the
table's version: each page then refetches what its own viewer may see."""

from cardgames.models import Table
from cardgames.selectors import can_view
from frontera.live.topics import register


def _authorize(user, table_id: int) -> bool:
    table = Table.objects.filter(pk=table_id).select_related("campaign").first()
    return table is not None and can_view(user, table)


def _version(table_id: int) -> int:
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first() or 0


register("table", authorize=_authorize, current_version=_version)
