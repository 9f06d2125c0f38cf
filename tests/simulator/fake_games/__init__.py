"""A tiny, controllable engine for the run tests (``countdown``), played on Mattsan decks in
place of the game's own engine through ``games.registry.PartOverride`` (see ``_builders``)."""
