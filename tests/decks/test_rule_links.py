"""A legality problem leads to its rule (issue 18): the API gives the rules page's absolute
address and the rule's title in both languages; the pages name the rule by its title, the
citation (``unmatched.md:18``) kept only as a tooltip."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from catalog.models import Game
from decks.services import deck_create
from games.reference import rule_for
from games.templatetags.games_ui import cite_links

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]

DECK_SIZE = rule_for("unmatched", 18)


def _validate(client: Client, language: str = "en") -> dict[str, Any]:
    response = client.post(
        "/api/v1/decks/validate/",
        json.dumps(
            {"game": "unmatched", "entries": [{"card": "feint", "zone": "deck", "quantity": 1}]}
        ),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200, response.content
    return {p["code"]: p for p in response.json()["problems"]}


def test_the_rule_of_the_size_problem_is_known() -> None:
    assert DECK_SIZE is not None and DECK_SIZE.anchor == "deck-size"


def test_a_validated_problem_links_its_rule_by_an_absolute_address(client: Client) -> None:
    problem = _validate(client)["zone-size"]
    assert problem["rule"] == "unmatched.md:18"
    assert problem["rule_url"] == "http://testserver/rules/unmatched/#deck-size"
    assert DECK_SIZE is not None
    assert problem["rule_title"] == {"en": DECK_SIZE.title_en, "ja": DECK_SIZE.title_ja}
    page = client.get(problem["rule_url"].removeprefix("http://testserver"))
    assert page.status_code == 200
    assert 'id="deck-size"' in page.content.decode()


def test_every_problem_that_cites_a_rule_of_the_reference_links_it(client: Client) -> None:
    problems = _validate(client).values()
    cited = [p for p in problems if p["rule"]]
    assert cited
    for problem in cited:
        assert problem["rule_url"].startswith("http://testserver/rules/unmatched/"), problem
    # a line that could not be read cites no rule: null, never a broken link
    unread = _validate_text(client, "1 No Such Card")
    assert unread["rule"] == "" and unread["rule_url"] is None and unread["rule_title"] is None


def _validate_text(client: Client, text: str) -> dict[str, Any]:
    response = client.post(
        "/api/v1/decks/validate/",
        json.dumps({"game": "unmatched", "text": text}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return next(p for p in response.json()["problems"] if p["line"])


def test_a_saved_decks_legality_links_its_rules(owner: Any, owner_client: Client) -> None:
    deck = deck_create(owner=owner, game=Game.objects.get(slug="unmatched"), name="Empty")
    data = owner_client.get(f"/api/v1/decks/{deck.public_id}/").json()
    problems = {p["code"]: p for p in data["legality"]["problems"]}
    assert problems["zone-size"]["rule_url"] == "http://testserver/rules/unmatched/#deck-size"


def test_the_schema_describes_the_rule_link(tmp_path: Path) -> None:
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--file", str(target))
    problem = yaml.safe_load(target.read_text())["components"]["schemas"]["Problem"]
    assert problem["properties"]["rule_url"]["format"] == "uri"
    assert problem["properties"]["rule_url"]["nullable"] is True
    assert "rule_title" in problem["properties"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_legality_panel_names_the_rule_by_its_title(
    owner: Any, owner_client: Client, language: str
) -> None:
    deck = deck_create(owner=owner, game=Game.objects.get(slug="unmatched"), name="Empty")
    page = owner_client.get(
        f"/decks/{deck.public_id}/", HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    link = re.search(r'<a class="problem-cite[^>]*data-cite="unmatched.md:18"[^>]*>(.*?)</a>', page)
    assert link is not None, page
    assert DECK_SIZE is not None
    assert DECK_SIZE.title(language) in link.group(1)
    assert "unmatched.md" not in link.group(1)  # the citation is only the tooltip now
    assert 'href="/rules/unmatched/#deck-size"' in link.group(0)


def test_a_citation_inside_a_note_is_named_by_its_rule() -> None:
    rule = rule_for("recharge", 53)
    assert rule is not None
    with translation.override("ja"):
        html = str(cite_links("Lose at an empty deck (recharge.md:53)."))
    assert f">{rule.title_ja}</a>" in html
    assert 'data-cite="recharge.md:53"' in html


def test_the_simulation_page_names_the_rules_its_engine_applies(
    owner: Any, owner_client: Client
) -> None:
    from django.urls import reverse

    from games import registry
    from tests.conftest import demo_deck

    deck = demo_deck("mattsan", owner)
    page = owner_client.get(
        reverse("simulator:simulate", args=[deck.public_id]), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    cites = registry.engines()["mattsan"].cites
    named = 0
    for cite in cites:
        rule = rule_for("mattsan", int(cite.split(":")[1].split("-")[0]))
        if rule is not None:
            assert f'data-cite="{cite}">{rule.title_ja}</a>' in page
            named += 1
    assert named  # at least one of the engine's citations is a rule of the reference
