"""``request.user`` as Django's ``AuthenticationMiddleware`` makes it (on first use, by Django's own
``get_user``: the account may still log in, the session still matches its password), taking the user
the request's session was read with when its store reads both in one statement
(:mod:`frontera.accounts.sessions`, ``REDIS_URL``) instead of reading it again (issue #11: a round
trip to the database fewer before every action's service). A store that does not (the embedded
default's, from memory) leaves it to the log-in backend, as before."""

from django.contrib import auth
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.utils.functional import SimpleLazyObject

from frontera.accounts.backends import known_users


class AuthenticationMiddleware(DjangoAuthenticationMiddleware):
    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))


def get_user(request):
    if not hasattr(request, "_cached_user"):
        session = request.session
        session.get(SESSION_KEY)  # its row read now (and, with a store that reads it, its user)
        read = getattr(session, "user_read", None)
        if read is None:
            request._cached_user = auth.get_user(request)
        else:
            with known_users(read):  # by the key the row named: the data names the user asked for
                request._cached_user = auth.get_user(request)
    return request._cached_user
