"""Every translated page, rendered in Japanese: no interface string the translation catalogue
knows is left in English, and no Python value (True, False, None) leaks into the text.

The interface strings are the catalogue's own msgids (locale/ja/LC_MESSAGES/django.po): a text
node or a label attribute of the Japanese page that equals one of them was not translated.
Card, set and product names are data, not msgids, so they never trip the check.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client

from catalog.models import Card, CardSet, Product
from contributions.models import EDITORS_GROUP
from decks.services import deck_update
from games import registry
from tests.conftest import demo_deck
from tests.contributions.pages_helpers import contribute_pages

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]

LABEL_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
PYTHON_VALUES = re.compile(r"^(True|False|None)$")
# msgids that are the same word in a Japanese page (names, codes, units)
SAME_IN_BOTH = {"DeckLab", "API", "English", "OK", "ID", "SVG", "JSON", "CSV", "%", "—", "×"}


@lru_cache(maxsize=1)
def interface_strings() -> frozenset[str]:
    po = (Path(settings.BASE_DIR) / "locale/ja/LC_MESSAGES/django.po").read_text("utf-8")
    found = set()
    for block in re.findall(r'^msgid ((?:".*"\n)+)', po, re.M):
        text = "".join(re.findall(r'"(.*)"', block)).replace('\\"', '"')
        if text and "%(" not in text and re.search(r"[A-Za-z]{3}", text):
            found.add(text)
    return frozenset(found - SAME_IN_BOTH)


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code", "pre"):
            self.skip += 1
        for name, value in attrs:
            if name in LABEL_ATTRIBUTES and value:
                self.texts.append(value.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code", "pre") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.texts.append(" ".join(data.split()))


def data_names() -> set[str]:
    """Names from the catalog: a set page shows the other language's name beside its own, and
    a name may happen to equal an interface string ("Base set")."""
    names: set[str] = set()
    for model in (CardSet, Card, Product):
        for pair in model.objects.values_list("name_en", "name_ja"):
            names.update(n for n in pair if n)
    return names


def english_left(html: str, known: frozenset[str]) -> list[str]:
    parser = _Texts()
    parser.feed(html)
    return sorted(
        {t for t in parser.texts if t in known or PYTHON_VALUES.match(t) or t.rstrip(":") in known}
    )


def pages(owner: Any) -> dict[str, str]:
    """Every page with translated words, by a name for the failure message."""
    found: dict[str, str] = {
        "home": "/",
        "search help": "/search/",
        "deck import": "/decks/import/",
        "new deck": "/decks/new/",
        "my collection": "/collection/",
        "runs": "/sim/runs/",
        "profile": f"/accounts/{owner.username}/",
        "token": "/accounts/me/token/",
    }
    from collection.models import CollectionJob

    # a big import's job page, finished (its words are the template's, not the worker's)
    job = CollectionJob.objects.create(
        owner=owner,
        kind="commit",
        status="succeeded",
        progress=100,
        result={"copies": 3, "rows": 1},
    )
    found["collection job"] = f"/collection/jobs/{job.pk}/"
    for game in registry.all_games():
        slug = game.slug
        found[f"{slug} game"] = f"/games/{slug}/"
        found[f"{slug} rules"] = f"/rules/{slug}/"
        found[f"{slug} browse"] = f"/decks/browse/{slug}/"
        card_set = CardSet.objects.filter(game__slug=slug, owner=None).first()
        card = Card.objects.filter(game__slug=slug, owner=None).first()
        product = Product.objects.filter(game__slug=slug, items__isnull=False).first()
        if card_set:
            found[f"{slug} set"] = f"/games/{slug}/sets/{card_set.code}/"
        if card:
            found[f"{slug} card"] = f"/games/{slug}/cards/{card.code}/"
        if product:
            found[f"{slug} product"] = f"/games/{slug}/products/{product.code}/"
        deck = demo_deck(slug, owner)
        deck_update(deck=deck, user=owner, expected_version=deck.version, name=f"{slug} twice")
        base = f"/decks/{deck.public_id}/"
        found.update(
            {
                f"{slug} deck": base,
                f"{slug} editor": f"{base}edit/",
                f"{slug} history": f"{base}history/",
                f"{slug} diff": f"{base}diff/?a=1&b=2",
                f"{slug} import into": f"{base}import/",
                f"{slug} test hand": f"{base}test-hand/",
                f"{slug} odds": f"{base}odds/",
                f"{slug} simulate": f"/sim/decks/{deck.public_id}/",
            }
        )
    return found


def test_every_translated_page_is_japanese_for_a_japanese_reader(
    owner: Any, owner_client: Client, friend: Any
) -> None:
    # the community catalog's pages: every proposal form of every game for the contributor,
    # and the review pages for a catalog editor (tests/contributions/pages_helpers.py)
    editor = get_user_model().objects.create_user("editor", "editor@example.test", "x" * 20)
    editor.groups.add(Group.objects.get_or_create(name=EDITORS_GROUP)[0])
    contribute = contribute_pages(
        slug=registry.all_games()[0].slug,
        author=owner,
        other=friend,
        decider=editor,
        every_game=True,
    )
    editor_client = Client()
    editor_client.force_login(editor)
    visits = [(owner_client, name, url) for name, url in pages(owner).items()]
    visits += [(owner_client, name, url) for name, url in contribute.player.items()]
    visits += [(editor_client, name, url) for name, url in contribute.editor.items()]
    untranslated: dict[str, list[str]] = {}
    known = interface_strings() - data_names()
    for client, name, url in visits:
        client.cookies["django_language"] = "ja"
        response = client.get(url, follow=True)  # a test hand redirects to its seed
        assert response.status_code == 200, (name, url, response.status_code)
        html = response.content.decode()
        assert '<html lang="ja"' in html, name
        left = english_left(html, known)
        if left:
            untranslated[name] = left
    assert untranslated == {}
