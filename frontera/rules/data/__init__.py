"""Data files shipped with the rules engine (read with importlib.resources)."""
