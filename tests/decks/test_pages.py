"""The deck pages: who sees what, the legality panel, statistics, clone, products, history,
export and import, and a query budget that does not grow with the deck."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.models import Card, Game, Product
from decks import errors
from decks.models import Deck, DeckEntry, DeckRevision
from decks.services import (
    deck_clone,
    deck_create,
    deck_entry_add,
    deck_from_product,
    deck_update,
)
from decks.specs import EntrySpec

DETAIL_BUDGET = 12


@pytest.fixture
def mh(db: None) -> Game:
    call_command("import_catalog", "games/monster_hunter/catalog.json", verbosity=0)
    return Game.objects.get(slug="monster-hunter")


def mh_cards(game: Game, card_type: str) -> list[Card]:
    return list(Card.objects.filter(game=game, card_type=card_type).order_by("code"))


def legal_mh_entries(game: Game) -> list[EntrySpec]:
    """A hunter and 40 main-deck cards (ten cards, four of each)."""
    hunter = mh_cards(game, "hunter")[0]
    main = list(Card.objects.filter(game=game).exclude(card_type="hunter").order_by("code"))
    return [EntrySpec(hunter, "hunter", 1)] + [EntrySpec(c, "main", 4) for c in main[:10]]


def make_deck(owner: Any, game: Game, *, visibility: str = "public", **kwargs: Any) -> Deck:
    kwargs.setdefault("name", "Ember test")
    return deck_create(owner=owner, game=game, visibility=visibility, **kwargs)


def url(name: str, deck: Deck, *args: Any) -> str:
    return reverse(f"decks:{name}", args=[deck.public_id, *args])


# --- who sees what ---------------------------------------------------------------------------


def test_a_private_deck_is_404_to_everyone_but_its_owner(
    owner: Any, mh: Game, owner_client: Client, friend_client: Client, stranger_client: Client
) -> None:
    deck = make_deck(owner, mh, visibility="private")
    assert owner_client.get(url("detail", deck)).status_code == 200
    assert friend_client.get(url("detail", deck)).status_code == 404
    assert stranger_client.get(url("detail", deck)).status_code == 404
    assert Client().get(url("detail", deck)).status_code == 404
    for name in ("history", "export"):
        args = ("text",) if name == "export" else ()
        assert friend_client.get(url(name, deck, *args)).status_code == 404


def test_an_unlisted_deck_opens_by_its_link_for_the_friend(
    owner: Any, mh: Game, friend_client: Client
) -> None:
    deck = make_deck(owner, mh, visibility="unlisted", name="Shared by link")
    response = friend_client.get(url("detail", deck))
    assert response.status_code == 200
    assert b"Shared by link" in response.content
    assert b'data-visibility="unlisted"' in response.content


def test_only_the_owner_sees_the_edit_link(
    owner: Any, mh: Game, owner_client: Client, friend_client: Client
) -> None:
    deck = make_deck(owner, mh)
    assert b'data-action="edit"' in owner_client.get(url("detail", deck)).content
    assert b'data-action="edit"' not in friend_client.get(url("detail", deck)).content


# --- the deck page ---------------------------------------------------------------------------


def test_the_legality_panel_lists_every_problem_with_its_fix_cards_and_rule(
    owner: Any, mh: Game, owner_client: Client
) -> None:
    monster = mh_cards(mh, "monster")[0]
    deck = make_deck(owner, mh, entries=[EntrySpec(monster, "main", 5)])
    html = owner_client.get(url("detail", deck)).content.decode()
    assert 'data-legal="no"' in html
    # 5 of one card (limit 4), 5 of 40 cards, no hunter: three errors, each explained
    assert 'data-problem="copy-limit"' in html or 'data-problem="copies"' in html
    assert html.count('data-severity="error"') >= 3
    assert "monster-hunter.md:31" in html and "monster-hunter.md:34" in html
    assert "How to fix:" in html
    card_url = reverse("catalog:card", args=[mh.slug, monster.code])
    assert f'href="{card_url}" data-card="{monster.code}"' in html


def test_the_problems_are_written_in_the_page_language(
    owner: Any, mh: Game, owner_client: Client
) -> None:
    monster = mh_cards(mh, "monster")[0]
    deck = make_deck(owner, mh, entries=[EntrySpec(monster, "main", 5)])
    html = owner_client.get(url("detail", deck), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f'data-card="{monster.code}">{monster.name_ja}</a>' in html


def test_a_legal_deck_says_so(owner: Any, mh: Game, owner_client: Client) -> None:
    deck = make_deck(owner, mh, entries=legal_mh_entries(mh))
    html = owner_client.get(url("detail", deck)).content.decode()
    assert 'id="legality-panel"' in html and 'data-legal="yes"' in html
    assert "Legal: this deck follows every construction rule." in html


def test_the_page_groups_entries_by_zone_with_counts_and_draws_faces(
    owner: Any, mh: Game, friend_client: Client
) -> None:
    deck = make_deck(owner, mh, entries=legal_mh_entries(mh))
    html = friend_client.get(url("detail", deck)).content.decode()
    assert 'data-zone="main"' in html and 'data-zone="hunter"' in html
    assert 'data-count="40"' in html and 'data-count="1"' in html
    assert 'class="face face-sm face-game-monster-hunter' in html
    listed = friend_client.get(url("detail", deck) + "?view=list").content.decode()
    assert "deck-list-table" in listed and "Attack" in listed


def test_the_statistics_are_inline_svg_charts_without_script(
    owner: Any, mh: Game, owner_client: Client
) -> None:
    deck = make_deck(owner, mh, entries=legal_mh_entries(mh))
    html = owner_client.get(url("detail", deck)).content.decode()
    assert 'data-chart="card_type"' in html and "<svg" in html
    assert "<script" not in html.split('id="deck-stats"')[1].split("</section>")[0]


def test_the_description_is_markdown_and_a_script_never_appears(
    owner: Any, mh: Game, friend_client: Client
) -> None:
    text = "**Burn** plan\n\n<script>alert('x')</script>\n\n[x](javascript:alert(1))"
    deck = make_deck(owner, mh, description=text)
    html = friend_client.get(url("detail", deck)).content.decode()
    assert "<strong>Burn</strong>" in html
    assert "<script>alert" not in html
    assert "javascript:alert" not in html


def test_a_deck_name_is_escaped(owner: Any, mh: Game, friend_client: Client) -> None:
    deck = make_deck(owner, mh, name="<b>bold</b> & co")
    html = friend_client.get(url("detail", deck)).content.decode()
    assert "<b>bold</b>" not in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in html


@pytest.mark.parametrize("size", [5, 60])
def test_the_deck_page_costs_the_same_queries_however_many_entries(
    owner: Any, mh: Game, owner_client: Client, size: int
) -> None:
    cards = list(Card.objects.filter(game=mh).exclude(card_type="hunter").order_by("code"))
    assert len(cards) >= 60
    deck = make_deck(owner, mh, entries=[EntrySpec(c, "main", 1) for c in cards[:size]])
    with CaptureQueriesContext(connection) as queries:
        response = owner_client.get(url("detail", deck))
    assert response.status_code == 200
    assert len(queries) <= DETAIL_BUDGET, [q["sql"] for q in queries]
    with CaptureQueriesContext(connection) as listed:
        owner_client.get(url("detail", deck) + "?view=list")
    assert len(listed) == len(queries)


def test_the_query_count_does_not_depend_on_the_deck_size(
    owner: Any, mh: Game, owner_client: Client
) -> None:
    cards = list(Card.objects.filter(game=mh).exclude(card_type="hunter").order_by("code"))
    counts = []
    for size in (5, 60):
        deck = make_deck(owner, mh, entries=[EntrySpec(c, "main", 1) for c in cards[:size]])
        with CaptureQueriesContext(connection) as queries:
            owner_client.get(url("detail", deck))
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- create, products, clone, delete ---------------------------------------------------------


def test_the_create_page_makes_a_deck_and_opens_the_editor(
    owner: Any, mh: Game, owner_client: Client
) -> None:
    page = owner_client.get(reverse("decks:create"))
    assert page.status_code == 200
    assert b"Ember Hunt" in page.content  # the product picker
    response = owner_client.post(
        reverse("decks:create"), {"game": mh.slug, "name": "Fresh", "visibility": "unlisted"}
    )
    deck = Deck.objects.get(name="Fresh")
    assert response.status_code == 302 and response["Location"] == url("edit", deck)
    assert deck.owner == owner and deck.visibility == "unlisted" and deck.game == mh


def test_the_create_page_refuses_a_missing_name_with_400(mh: Game, owner_client: Client) -> None:
    response = owner_client.post(reverse("decks:create"), {"game": mh.slug, "name": ""})
    assert response.status_code == 400
    assert b'data-field="name"' in response.content
    assert not Deck.objects.exists()


def test_the_variant_field_is_offered_only_for_games_with_variants(
    mh: Game, owner_client: Client
) -> None:
    call_command("import_catalog", "games/recharge/catalog.json", verbosity=0)
    htmx = {"HTTP_HX_REQUEST": "true"}
    mh_field = owner_client.get(reverse("decks:create") + "?game=monster-hunter", **htmx)
    assert b"<select" not in mh_field.content
    rc_field = owner_client.get(reverse("decks:create") + "?game=recharge", **htmx)
    assert b'value="tournament"' in rc_field.content
    response = owner_client.post(
        reverse("decks:create"),
        {"game": "recharge", "name": "T", "visibility": "private", "variant": "tournament"},
    )
    assert response.status_code == 302
    assert Deck.objects.get(name="T").variant == "tournament"


def test_anonymous_players_are_sent_to_log_in(owner: Any, mh: Game) -> None:
    deck = make_deck(owner, mh)
    for target in (reverse("decks:create"), url("edit", deck), reverse("decks:import")):
        response = Client().get(target)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = Client().post(url("clone", deck))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_deck_starts_from_a_product(mh: Game, owner: Any, owner_client: Client) -> None:
    product = Product.objects.get(game=mh, code="mh-demo-ember-hunt")
    target = reverse("decks:from-product", args=[mh.slug, product.code])
    response = owner_client.post(target)
    deck = Deck.objects.get(owner=owner)
    assert response.status_code == 302 and response["Location"] == url("detail", deck)
    assert deck.source_product == product and deck.card_count == 40
    assert owner_client.get(target).status_code == 405
    picked = owner_client.post(reverse("decks:from-product-pick"), {"product": product.pk})
    assert picked.status_code == 302 and Deck.objects.filter(owner=owner).count() == 2


def test_a_product_without_contents_is_404(mh: Game, owner_client: Client) -> None:
    target = reverse("decks:from-product", args=[mh.slug, "mh-base-starter"])
    assert owner_client.post(target).status_code == 404


def test_any_viewer_can_clone_what_they_can_see(
    owner: Any, friend: Any, mh: Game, friend_client: Client
) -> None:
    deck = make_deck(owner, mh, visibility="unlisted", entries=legal_mh_entries(mh))
    response = friend_client.post(url("clone", deck))
    copy = Deck.objects.get(owner=friend)
    assert response.status_code == 302 and response["Location"] == url("detail", copy)
    assert copy.visibility == "private" and copy.cloned_from == deck and copy.is_legal
    private = make_deck(owner, mh, visibility="private")
    assert friend_client.post(url("clone", private)).status_code == 404


def test_only_the_owner_deletes_after_confirming(
    owner: Any, mh: Game, owner_client: Client, friend_client: Client
) -> None:
    deck = make_deck(owner, mh)
    assert friend_client.get(url("delete", deck)).status_code == 404
    assert friend_client.post(url("delete", deck)).status_code == 404
    assert b"Delete the deck" in owner_client.get(url("delete", deck)).content
    response = owner_client.post(url("delete", deck))
    assert response.status_code == 302
    assert not Deck.objects.filter(pk=deck.pk).exists()


# --- history, diff, restore ------------------------------------------------------------------


def _deck_with_history(owner: Any, mh: Game) -> Deck:
    entries = legal_mh_entries(mh)
    deck = make_deck(owner, mh, entries=entries)
    deck_entry_add(
        deck=deck,
        user=owner,
        expected_version=deck.version,
        card=entries[1].card,
        zone="main",
        delta=-2,
    )
    deck_update(deck=deck, user=owner, expected_version=deck.version, name="Renamed")
    return deck


def test_the_history_lists_every_revision(owner: Any, mh: Game, friend_client: Client) -> None:
    deck = _deck_with_history(owner, mh)
    html = friend_client.get(url("history", deck)).content.decode()
    for number in (1, 2, 3):
        assert f'data-revision="{number}"' in html
    assert "−2 " in html and "owner" in html
    assert "Restore" not in html  # only the owner restores


def test_the_diff_shows_changed_lines_per_zone_and_changed_fields(
    owner: Any, mh: Game, friend_client: Client
) -> None:
    deck = _deck_with_history(owner, mh)
    html = friend_client.get(url("diff", deck) + "?a=1&b=3").content.decode()
    changed = DeckEntry.objects.filter(deck=deck, quantity=2).get().card
    assert f'data-card="{changed.code}" data-kind="changed"' in html
    assert 'data-field="name"' in html and "Renamed" in html and "Ember test" in html
    assert friend_client.get(url("diff", deck) + "?a=1&b=9").status_code == 404
    assert friend_client.get(url("diff", deck) + "?a=x").status_code == 400


def test_the_owner_restores_a_revision_and_a_stale_page_gets_409(
    owner: Any, mh: Game, owner_client: Client, friend_client: Client
) -> None:
    deck = _deck_with_history(owner, mh)
    target = url("restore", deck, 1)
    assert friend_client.post(target, {"version": deck.version}).status_code == 404
    stale = owner_client.post(target, {"version": deck.version - 1})
    assert stale.status_code == 409
    assert str(errors.STALE_DECK) in stale.content.decode()
    response = owner_client.post(target, {"version": deck.version})
    assert response.status_code == 302
    deck.refresh_from_db()
    assert deck.name == "Ember test" and deck.is_legal
    assert DeckRevision.objects.filter(deck=deck).count() == 4


# --- export and import -----------------------------------------------------------------------


def test_the_text_export_is_a_plain_text_download(
    owner: Any, mh: Game, friend_client: Client
) -> None:
    deck = make_deck(owner, mh, entries=legal_mh_entries(mh), name="Ember test")
    response = friend_client.get(url("export", deck, "text"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert 'attachment; filename="ember-test.txt"' in response["Content-Disposition"]
    assert "## main" in response.content.decode()
    assert friend_client.get(url("export", deck, "unmatched-json")).status_code == 404
    assert friend_client.get(url("export", deck, "xml")).status_code == 404


def test_an_import_with_bad_lines_shows_every_one_and_saves_nothing(
    mh: Game, owner_client: Client
) -> None:
    text = "## main\n4 Reedskiper\n2 Bramble Boar\nfour Lantern Moth\n## hunter\n1 Nobody At All\n"
    response = owner_client.post(
        reverse("decks:import"),
        {"game": mh.slug, "fmt": "text", "text": text, "visibility": "private"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    for line in (2, 4, 6):
        assert f'data-line="{line}"' in html
    assert 'data-line="3"' not in html
    assert "Reedskipper" in html  # the did-you-mean
    assert not Deck.objects.exists()


def test_an_import_makes_a_deck(mh: Game, owner: Any, owner_client: Client) -> None:
    text = "name: From text\n## hunter\n1 Wandering Hunter Ren\n## main\n4 Reedskipper\n"
    response = owner_client.post(
        reverse("decks:import"),
        {"game": mh.slug, "fmt": "text", "text": text, "visibility": "public"},
    )
    deck = Deck.objects.get(owner=owner)
    assert response.status_code == 302 and response["Location"] == url("detail", deck)
    assert deck.name == "From text" and deck.card_count == 4 and deck.visibility == "public"


def test_the_owner_imports_into_a_deck_and_bad_lines_change_nothing(
    owner: Any, mh: Game, owner_client: Client, friend_client: Client
) -> None:
    deck = make_deck(owner, mh, entries=legal_mh_entries(mh))
    target = url("import-into", deck)
    assert friend_client.get(target).status_code == 404
    assert owner_client.get(target).status_code == 200
    bad = owner_client.post(target, {"fmt": "text", "text": "2 Nope", "version": deck.version})
    assert bad.status_code == 400 and b'data-line="1"' in bad.content
    assert DeckEntry.objects.filter(deck=deck).count() == 11
    stale = owner_client.post(
        target, {"fmt": "text", "text": "4 Reedskipper", "version": deck.version - 1}
    )
    assert stale.status_code == 409 and str(errors.STALE_DECK) in stale.content.decode()
    good = owner_client.post(
        target, {"fmt": "text", "text": "4 Reedskipper", "version": deck.version}
    )
    assert good.status_code == 302
    assert DeckEntry.objects.filter(deck=deck).count() == 1


def test_an_unmatched_deck_exports_as_unmatched_cards_json(
    owner: Any, friend_client: Client
) -> None:
    call_command("import_catalog", "games/unmatched/catalog.json", verbosity=0)
    product = Product.objects.get(game__slug="unmatched", code="achilles")
    deck = deck_create(
        owner=owner,
        game=product.game,
        name="Achilles",
        visibility="public",
        entries=[
            EntrySpec(i.printing.card, i.zone, i.quantity, i.printing)
            for i in product.items.select_related("printing__card")
        ],
    )
    page = friend_client.get(url("detail", deck)).content.decode()
    assert 'data-export="unmatched-json"' in page
    response = friend_client.get(url("export", deck, "unmatched-json"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert 'filename="achilles.json"' in response["Content-Disposition"]
    data = json.loads(response.content)
    assert "hero" in data and "cards" in data


def test_a_cloned_deck_from_a_product_stays_within_the_budget(
    owner: Any, friend: Any, mh: Game, friend_client: Client
) -> None:
    product = Product.objects.get(game=mh, code="mh-demo-ember-hunt")
    original = deck_from_product(product=product, user=owner)
    deck_update(deck=original, user=owner, expected_version=original.version, visibility="public")
    copy = deck_clone(deck=original, user=friend)
    with CaptureQueriesContext(connection) as queries:
        html = friend_client.get(url("detail", copy)).content.decode()
    assert len(queries) <= DETAIL_BUDGET, [q["sql"] for q in queries]
    assert "Started from the product" in html and "Cloned from" in html


def test_a_recharge_deck_page_shows_its_chips(owner_client: Any, owner: Any) -> None:
    call_command("import_catalog", "games/recharge/catalog.json", verbosity=0)
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="recharge"),
        name="Chips",
        extras={"chips": [5] * 10 + [4, 4]},
    )
    page = owner_client.get(f"/decks/{deck.public_id}/").content.decode()
    assert "data-chips" in page
    assert "12 chips, 58 points" in page
