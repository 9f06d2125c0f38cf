"""The games app: see ``games/web.py``."""

from __future__ import annotations

from games.web import GamesConfig

__all__ = ["GamesConfig"]
