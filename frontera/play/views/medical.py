"""Medical attention (FR-CHK-5): the healer's check."""

from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from frontera.characters.models import Character
from frontera.play.forms.medical import MedicalForm
from frontera.play.selectors.pages import callable_characters
from frontera.play.services import medical as medical_actions
from frontera.play.services.core import SessionError
from frontera.play.views.common import done, form_errors, session_for_mayor


@login_required
@require_POST
def medical_new(request, pk: int):
    """The Mayor calls for medical attention: the healer's check, drawn on the healer's phone."""
    session = session_for_mayor(request.user, pk)
    form = MedicalForm(request.POST, characters=callable_characters(session))
    if not form.is_valid():
        return done(request, session, error=_("Check the form: %(errors)s") % {"errors": form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk([int(data["healer"]), int(data["patient"])])
    try:
        medical_actions.medical_request(session=session, by=request.user, healer=found[int(data["healer"])],
                                 patient=found[int(data["patient"])], request_key=data["request_key"])
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)
