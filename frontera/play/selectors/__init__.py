"""Every read of a live session, one module per concern, in the same words as
:mod:`frontera.play.services` and :mod:`frontera.play.views`:

=============  ===================================================================================
``core``       who the viewer is and which cards they may see; the feed, cards, characters, zones
``checks``     open and recent checks, with the holder's exact odds
``combat``     the fight, a declaration's defaults, the duellists' weapons
``exchanges``  card exchanges and treasure sharings
``gambling``   bancas and drinking duels
``sheet``      what the character sheet shows of a session, and its live topic
``pages``      the Mayor's dashboard and the player's phone, built whole from one viewer
=============  ===================================================================================

This package re-exports nothing: import from the module that owns the read.
"""
