"""The Django side of the games registry: each game's ``templates/`` and ``static/`` folders
served under ``games/<slug>/``, and the extra games named in settings registered at start-up.

Templates: ``games/<slug>/face.html`` is ``templates/face.html`` of that game's package.
Static files: ``games/<slug>/face.css`` is ``static/face.css`` of that package, found by
``collectstatic`` and ``{% static %}`` alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.contrib.staticfiles.finders import FileSystemFinder
from django.core.files.storage import FileSystemStorage
from django.template import Origin
from django.template.loaders.filesystem import Loader as FileSystemLoader

from games import registry

PREFIX = "games/"


class GamesConfig(AppConfig):
    name = "games"
    label = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Games kept outside this repository: dotted package paths, e.g. "mygames.poker"
        for package in getattr(settings, "DECKLAB_EXTRA_GAMES", ()):
            registry.register(package)
        # before the first translation is asked for, which reads LOCALE_PATHS once
        settings.LOCALE_PATHS = with_game_locales(settings.LOCALE_PATHS)


def with_game_locales(paths: Iterable[str | Path]) -> list[str | Path]:
    """``paths`` and the ``locale/`` folder of every registered game that has one: a game kept
    outside this repository brings its own translations (the built-in games' entries are in
    the project's catalog, so their packages have none)."""
    found = list(paths)
    for game in registry.all_games():
        folder = game.directory / "locale"
        if folder.is_dir() and folder not in found:
            found.append(folder)
    return found


class GameTemplateLoader(FileSystemLoader):
    """``games/<slug>/<name>`` from the ``templates`` folder of that game's package."""

    def get_template_sources(self, template_name: str) -> Iterator[Origin]:
        if not template_name.startswith(PREFIX):
            return
        slug, _sep, rest = template_name.removeprefix(PREFIX).partition("/")
        if not rest or not registry.is_game(slug):
            return
        path = registry.get(slug).templates_dir / rest
        # refuse "../" escapes out of the game's folder
        if registry.get(slug).templates_dir not in path.resolve().parents:
            return
        yield Origin(name=str(path), template_name=template_name, loader=self)


class GameStaticFinder(FileSystemFinder):
    """Each registered game's ``static`` folder, under the prefix ``games/<slug>``."""

    def __init__(self, app_names: Any = None, *args: Any, **kwargs: Any) -> None:
        # FileSystemFinder reads STATICFILES_DIRS; start empty and add the games' folders
        self.locations: list[tuple[str, str]] = []
        self.storages: dict[str, FileSystemStorage] = {}
        for game in registry.all_games():
            root: Path = game.static_dir
            if root.is_dir():
                prefix = f"{PREFIX}{game.slug}"
                self.locations.append((prefix, str(root)))
                storage = FileSystemStorage(location=str(root))
                storage.prefix = prefix  # type: ignore[attr-defined]
                self.storages[str(root)] = storage

    def check(self, **kwargs: Any) -> list[Any]:
        return []
