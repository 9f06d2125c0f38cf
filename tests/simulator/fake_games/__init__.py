"""A games package of the test suite's own: a tiny, controllable engine for the run tests.

Registered through ``SIMULATOR_GAME_PACKAGES`` (see simulator/selectors.py), which the run
tests set with pytest-django's ``settings`` fixture. Modules starting with "_" are helpers,
not games (the registry skips them).
"""
