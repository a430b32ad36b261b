"""The Celery application. Settings come from Django's (``CELERY_*``); tasks are discovered in
every installed app's ``tasks`` module. Eager (inline) only in the embedded default."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontera.settings")

app = Celery("frontera")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
