"""The sheet's live topic: ``character:<id>``, readable by whoever may see the sheet."""

from frontera.campaigns.permissions import can_view_character
from frontera.characters.models import Character
from frontera.characters.selectors import character_version
from frontera.live.topics import register


def _authorize(user, character_id: int) -> bool:
    character = Character.objects.select_related("campaign").filter(pk=character_id).first()
    return character is not None and can_view_character(user, character)


register("character", authorize=_authorize, current_version=character_version)
