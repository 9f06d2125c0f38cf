"""The simulation API (runs and engines), mounted at /api/v1/ by decklab/urls.py."""
