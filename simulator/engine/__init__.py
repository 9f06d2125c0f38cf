"""The shared simulation core: pure Python, imports nothing from Django.

- ``rng``: one seeded generator per game, its seed derived from (run seed, game index);
- ``params``: engine parameters declared as typed data with defaults and bounds;
- ``cards``/``piles``: what an engine plays with;
- ``metrics``: accumulators that merge exactly, and summaries with 95 % intervals;
- ``odds``: exact draw odds (hypergeometric) and draw schedules;
- ``engine``: the base class every game's engine subclasses, and ``run_games``;
- ``registry``: engines by game slug (simulator/games/*.py).
"""
