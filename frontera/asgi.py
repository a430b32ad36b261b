"""ASGI entry point (uvicorn serves it; SSE needs ASGI)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontera.settings")

application = get_asgi_application()
