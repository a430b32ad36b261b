"""The pistol duel (FR-CMB-15)."""

from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from frontera.characters.models import Character
from frontera.play.forms.duels import PistolDuelForm
from frontera.play.selectors.combat import duel_weapons
from frontera.play.selectors.pages import callable_characters
from frontera.play.services import duels as duels_actions
from frontera.play.services.core import SessionError
from frontera.play.views.common import done, form_errors, session_for_mayor


@login_required
@require_POST
def pistol_duel_new(request, pk: int):
    """The Mayor calls a pistol duel: two characters, each with the ranged weapon they use. The
    duellists then draw and choose in the checks list like any opposed check."""
    session = session_for_mayor(request.user, pk)
    form = PistolDuelForm(request.POST, characters=callable_characters(session),
                          weapons=duel_weapons(session))
    if not form.is_valid():
        return done(request, session, error=_("Check the form: %(errors)s") % {"errors": form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk([int(data["first"]), int(data["second"])])
    try:
        duels_actions.pistol_duel_start(session=session, by=request.user, first=found[int(data["first"])],
                                   first_weapon=data["first_weapon"], second=found[int(data["second"])],
                                   second_weapon=data["second_weapon"], request_key=data["request_key"])
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)
