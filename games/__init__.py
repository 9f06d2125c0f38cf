"""Every game DeckLab knows, one package each, found through ``games.registry``."""
