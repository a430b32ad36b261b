"""Background work of the bonus tables: a bot's move.

Delivered at least once (``acks_late``; a worker lost mid-move gives the message back to the
broker, ``reject_on_worker_lost``) and idempotent per ply: :func:`cardgames.services.bot_move` does
nothing for a ply the game has left, so a second delivery plays nothing. A database error (a
connection lost, a serialisation failure) is retried with a back-off.
"""

from celery import shared_task
from django.db import DatabaseError

from cardgames import services


@shared_task(acks_late=True, reject_on_worker_lost=True, autoretry_for=(DatabaseError,), retry_backoff=1,
             retry_backoff_max=10, max_retries=5)
def bot_move_task(table_id: int, ply: int) -> bool:
    """The bot to move at ``ply`` of table ``table_id`` plays; ``False`` when there was nothing to do."""
    return services.bot_move(table_id=table_id, ply=ply)
