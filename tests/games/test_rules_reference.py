"""Each game's rules reference page (games/reference.py): in both languages, every rule under
its own anchor, and every rule the deck checker cites linked from the legality panel."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from decks.game_rules import deck_rules
from games import registry
from games.reference import anchor_of, reference
from games.templatetags.games_ui import cite_links, rule_url

SLUGS = ["mattsan", "monster-hunter", "ouka-fushin", "recharge", "unmatched"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_has_a_reference_with_unique_anchors_in_both_languages(slug: str) -> None:
    rules = [r for s in reference(slug) for r in s.rules]
    assert rules
    assert len({r.anchor for r in rules}) == len(rules)
    for rule in rules:
        assert rule.title("en") and rule.title("ja") and rule.title("ja") != rule.title("en")
        assert rule.text("en") and rule.text("ja") and rule.text("ja") != rule.text("en")
        assert re.fullmatch(r"[a-z][a-z0-9-]*", rule.anchor)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_rule_the_deck_checker_cites_has_its_own_rule_in_the_reference(slug: str) -> None:
    rules = deck_rules(slug)
    cites = [z.cite for z in rules.zones if z.cite] + [r.cite for r in rules.rules]  # type: ignore[attr-defined]
    digest = registry.get(slug).digest
    for cite in [*cites, rules.construction]:
        found = anchor_of(digest, cite.line)
        assert found is not None and found[0] == slug
        assert found[1], f"{cite} is covered by no rule of {slug}'s reference"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_rules_page_shows_each_rule_under_its_anchor(client: Client, language: str) -> None:
    client.cookies["django_language"] = language
    response = client.get("/rules/unmatched/")
    page = response.content.decode()
    assert response.status_code == 200
    assert f'lang="{language}"' in page
    for rule in (r for s in reference("unmatched") for r in s.rules):
        assert f'id="{rule.anchor}"' in page
        assert escape(rule.text(language)) in page and escape(rule.title(language)) in page


@pytest.mark.django_db
def test_an_unknown_game_has_no_rules_page(client: Client) -> None:
    assert client.get("/rules/chess/").status_code == 404


@pytest.mark.parametrize(
    ("cite", "url"),
    [
        ("unmatched.md:18", "/rules/unmatched/#deck-size"),
        ("recharge.md:30", "/rules/recharge/#chips"),
        ("monster-hunter.md:31", "/rules/monster-hunter/#deck-size"),
        ("nothing.md:3", ""),
    ],
)
def test_a_citation_links_to_its_rule(cite: str, url: str) -> None:
    assert rule_url(cite) == url


def test_citations_inside_a_note_become_links_and_the_rest_stays_escaped() -> None:
    with translation.override("en"):
        html = str(cite_links("Lose at an empty deck <b> (recharge.md:53)."))
    assert '<a href="/rules/recharge/#winning"' in html
    # named by the rule's title (issue 18); the citation stays as the link's tooltip
    assert 'data-cite="recharge.md:53"' in html and ">recharge.md:53</a>" not in html
    assert "&lt;b&gt;" in html


@pytest.mark.django_db
def test_the_legality_panel_links_each_problem_to_its_rule(owner_client: Any, owner: Any) -> None:
    from catalog.models import Game
    from decks.services import deck_create

    game, _ = Game.objects.get_or_create(slug="mattsan", defaults={"name_en": "Mattsan"})
    deck = deck_create(owner=owner, game=game, name="Empty")
    page = owner_client.get(f"/decks/{deck.public_id}/").content.decode()
    assert 'href="/rules/mattsan/#deck-size" data-rule-link' in page


@pytest.mark.django_db
@pytest.mark.usefixtures("committed_catalogs")
def test_each_game_page_links_its_rules_reference(client: Client) -> None:
    for slug in SLUGS:
        page = client.get(f"/games/{slug}/").content.decode()
        assert f'href="/rules/{slug}/" data-rules-page' in page
