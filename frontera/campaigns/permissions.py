"""Who may do what. Every view asks here; templates never decide a permission.

A user outside a campaign must not learn that it exists: :func:`campaign_for_member` raises
``Http404``, never 403.
"""

from functools import cache

from django.http import Http404

from frontera.campaigns.models import Campaign, Membership
from frontera.sql import column, rows, table


def _role(user, campaign: Campaign) -> str | None:
    if not user.is_authenticated:
        return None
    cache = getattr(user, "_frontera_roles", None)
    if cache is None:
        cache = user._frontera_roles = {}
    if campaign.pk not in cache:
        cache[campaign.pk] = (
            Membership.objects.filter(campaign=campaign, user=user).values_list("role", flat=True).first()
        )
    return cache[campaign.pk]


def role_sql(model, campaign_field: str = "campaign") -> str:
    """The user's role in the campaign that ``model``'s ``campaign_field`` names, as a correlated
    subquery of ``model``'s queries (the user's id its one parameter), so that a view reading a
    campaign's object learns the role in the same statement (:func:`remember_role`). Written as SQL
    (:mod:`frontera.sql`: the same statement every request, and compiling a ``Subquery`` afresh cost
    ~0.3 ms of each); at most one row, as a user has one membership in a campaign."""
    return (f"SELECT {column(Membership, 'role', qualified=False)} FROM {table(Membership)} "
            f"WHERE {column(Membership, 'campaign', qualified=False)} = {column(model, campaign_field)} "
            f"AND {column(Membership, 'user', qualified=False)} = %s")


def remember_role(user, campaign_id: int, role: str | None) -> None:
    """What a statement with :func:`role_sql` read: the permission checks of this request ask no more."""
    if user.is_authenticated:
        cache = getattr(user, "_frontera_roles", None)
        if cache is None:
            cache = user._frontera_roles = {}
        cache[campaign_id] = role


def roles_in(campaign_id: int) -> dict[int, str]:
    """Every member's role in the campaign, by user id, read in one statement (the pages one push is
    rendered for, :mod:`frontera.play.views.pushed`; a campaign has a table's worth of members); each
    is given to :func:`remember_role` for its user."""
    return dict(rows(_roles_sql(), (campaign_id,)))


@cache
def _roles_sql() -> str:
    return (f"SELECT {column(Membership, 'user', qualified=False)}, {column(Membership, 'role', qualified=False)} "
            f"FROM {table(Membership)} WHERE {column(Membership, 'campaign', qualified=False)} = %s")


def is_mayor_of(user, campaign: Campaign) -> bool:
    return _role(user, campaign) == Membership.Role.MAYOR


def is_player_of(user, campaign: Campaign) -> bool:
    return _role(user, campaign) == Membership.Role.PLAYER


def is_member_of(user, campaign: Campaign) -> bool:
    return _role(user, campaign) is not None


def owns_character(user, character) -> bool:
    """A player owns the characters they play; the Mayor owns NPCs and minions."""
    return user.is_authenticated and character.owner_id == user.pk


def campaign_for_member(user, pk: int) -> Campaign:
    """The campaign ``pk`` if ``user`` belongs to it, else 404 (never 403)."""
    campaign = Campaign.objects.filter(pk=pk).select_related("mayor").first()
    if campaign is None or not is_member_of(user, campaign):
        raise Http404
    return campaign


def campaign_for_mayor(user, pk: int) -> Campaign:
    """The campaign ``pk`` if ``user`` is its Mayor; 404 for everybody else."""
    campaign = campaign_for_member(user, pk)
    if not is_mayor_of(user, campaign):
        raise Http404
    return campaign


def can_view_character(user, character) -> bool:
    """Every member sees the protagonists of the campaign; NPCs and minions only the Mayor (FR-CHAR-6)."""
    campaign = character.campaign
    if not is_member_of(user, campaign):
        return False
    return character.kind == "protagonist" or is_mayor_of(user, campaign)


def can_edit_character(user, character) -> bool:
    """The whole sheet: only the Mayor of the character's campaign (the rest changes through play)."""
    return is_mayor_of(user, character.campaign)


def can_edit_character_notes(user, character) -> bool:
    """Notes, money and description: the character's player, or the Mayor."""
    return can_edit_character(user, character) or (
        owns_character(user, character) and is_member_of(user, character.campaign)
    )


def can_run_session(user, campaign: Campaign) -> bool:
    """Starting sessions, calling checks, switching phases: the Mayor of the campaign."""
    return is_mayor_of(user, campaign)


def can_act_for(user, character) -> bool:
    """Drawing and choosing cards for a character at the table: its player, or the Mayor (for NPCs
    and minions, and for a player who has no phone at hand)."""
    return is_mayor_of(user, character.campaign) or (
        owns_character(user, character) and is_member_of(user, character.campaign)
    )
