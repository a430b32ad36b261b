"""Project-wide middleware.

:func:`never_store` marks every response the apps make as not storable (``Cache-Control: no-store``
and friends, Django's :func:`~django.utils.cache.add_never_cache_headers`) unless its view set a
``Cache-Control`` of its own: pages, htmx fragments and exports may show cards, and a shared phone's
cache or a proxy must keep none of them. Static files never reach it (WhiteNoise answers them
first, with its own long-lived caching).
"""

from asgiref.sync import iscoroutinefunction
from django.utils.cache import add_never_cache_headers
from django.utils.decorators import sync_and_async_middleware


def _mark(response) -> None:
    if not response.has_header("Cache-Control"):
        add_never_cache_headers(response)


@sync_and_async_middleware
def never_store(get_response):
    if iscoroutinefunction(get_response):

        async def middleware(request):
            response = await get_response(request)
            _mark(response)
            return response

    else:

        def middleware(request):
            response = get_response(request)
            _mark(response)
            return response

    return middleware
