"""The session history: every card movement and rule decision of a session, as one viewer may read it.

==========  ======================================================================================
``rows``    who the viewer is, what they may see (the redaction rules), one event as a row
``log``     the filtered log, its pages and its CSV/JSON exports
``cards``   one card's journey
``charts``  outcomes, suits, deck sizes and tracks over the session
==========  ======================================================================================

This package re-exports nothing: import from the module that owns the read.
"""
