"""Every write of a live session: one module per family of table actions, named as a player would
name it, and one function per thing a person does at the table.

==================  ==============================================================================
``sessions``        start a session, join late, switch to phase 2, end the session
``checks``          trait and opposed checks: call, draw, choose, reveal
``table_tools``     the Mayor's tools: track changes, accidents, threats, drinks, the dead man's
                    hand, rest, one action per form submission
``death``           the death roll and the sheets a fight takes (FR-HLT-3)
``medical``         medical attention (FR-CHK-5)
``combat``          combat rounds: start, declare, draw, choose, reveal, next turn, end
``exchanges``       card exchanges (bets, cheats, duels, drunkenness, treasure) and calling one off
``treasure``        sharing a treasure among several protagonists (FR-EXCH-6)
``gambling``        gambling nights: the banca, azar and habilidad contests
``duels``           the drinking duel and the pistol duel
``follow_ups``      what settles the table actions that start a check when it resolves
``core``            what they share: the event log, locking, the engine state, publishing
==================  ==============================================================================

Each function is keyword-only and atomic; it locks the session row (``select_for_update``: on
PostgreSQL two phones drawing at once are serialised; SQLite's IMMEDIATE transactions do the same),
calls the rules engine (:mod:`frontera.rules`), stores the engine's new state, appends every card
movement and rule decision to :class:`~frontera.play.models.SessionEvent` and publishes the
``session:<id>`` topic after commit (:class:`~frontera.play.services.core.EventLog`). Preconditions a
person can get wrong raise :class:`~frontera.play.services.core.SessionError` with a message in the
user's language; nothing has changed then.

Callers import from the module that owns the action (``from frontera.play.services.combat import
combat_declare``); this package re-exports nothing.
"""

from frontera.play.models import Gamble, Treatment
from frontera.play.services import duels, follow_ups, gambling, medical

# A check started by another table action settles that action when it resolves (see
# frontera.play.services.follow_ups). The modules above checks are wired here; a trait check's
# follow-up with the model whose rows wait on its checks.
follow_ups.after_trait_check((Gamble, gambling.after_banca_stop_check), (Treatment, medical.after_medical_check))
follow_ups.after_opposed_reveal(gambling.after_contest_reveal, duels.after_duel_round_reveal)
