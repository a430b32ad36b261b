"""Frontera: the Django project (settings, urls, ASGI, Celery) and the campaign apps.

Nothing is imported here: ``frontera.rules`` must stay importable without Django or Celery.
The Celery app is loaded by ``frontera.campaigns.apps`` (web processes) and by
``celery -A frontera.celery`` (workers).
"""
