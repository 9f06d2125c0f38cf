"""DeckLab: the Django project package (settings, URLs, Celery app)."""

from __future__ import annotations

from decklab.celery import app as celery_app

__all__ = ["celery_app"]
