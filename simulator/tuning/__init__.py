"""Deck tuning ("Improve this deck"): one-card moves raced by simulation on the workers.

- ``candidates``: the cards a tuning may add (the collection's, the game's, a typed list) and
  the legal moves, judged by the decks app's one legality checker;
- ``play``: what a worker plays for a round (the pure race is ``simulator.engine.tuning``);
- ``services``: create, advance after each round, cancel and apply;
- ``serialise``: a job's ranking as the pages and the API show it.
"""
