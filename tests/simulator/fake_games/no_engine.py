"""A game part with no ``ENGINE``: swapped in for a game's engine (``games.registry.PartOverride``)
to show what a game without a goldfish engine looks like, whichever games have one."""
