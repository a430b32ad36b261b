"""The language a person reads the app in (issue #12):

1. the language they chose with the header's switch while logged in, remembered on their account
   (:class:`~frontera.accounts.models.Preferences`) and applied at every log-in and on each of their
   requests (:func:`account_language`, after Django's ``LocaleMiddleware``);
2. otherwise what their browser asks for (``Accept-Language``, or the language cookie the switch
   sets when logged out), through ``LocaleMiddleware``;
3. Spanish when the browser asks for neither Spanish nor English (``LANGUAGE_CODE``).

The account's choice is copied into the session at log-in, so a request reads it without a query.
"""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from frontera.accounts.services import language_remember

SESSION_KEY = "account_language"
_CODES = {code for code, _name in settings.LANGUAGES}


def account_language(get_response):
    """Activate the account's remembered language for each request of a logged-in person."""

    def middleware(request):
        code = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
        user = getattr(request, "user", None)
        if code in _CODES and user is not None and user.is_authenticated:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return get_response(request)

    return middleware


@require_POST
def set_language(request):
    """Django's ``set_language`` (cookie and redirect); a logged-in person's choice is also
    remembered on their account and in their session."""
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if code in _CODES and request.user.is_authenticated:
        language_remember(user=request.user, language=code)
        request.session[SESSION_KEY] = code
    return response


@receiver(user_logged_in)
def _apply_at_log_in(sender, request, user, **kwargs):
    """At log-in the account's language, if it has one, becomes the session's."""
    from frontera.accounts.models import Preferences

    if request is None or not hasattr(request, "session"):
        return
    code = Preferences.objects.filter(user=user).values_list("language", flat=True).first()
    if code in _CODES:
        request.session[SESSION_KEY] = code
