"""The deck editor: owner only, each change saved at once with the version it read, answered
with fragments for htmx (entries, legality, statistics, version), 409 when stale, 400 naming
the field on bad input, CSRF enforced, and the Recharge chips editor."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.models import Card, Game, Printing, Product
from decks import errors
from decks.models import Deck, DeckEntry
from decks.services import deck_create, deck_from_product, deck_update
from decks.specs import EntrySpec
from games.recharge.extras import NOT_A_NUMBER as CHIP_NOT_A_NUMBER

HTMX = {"HTTP_HX_REQUEST": "true"}
EDIT_BUDGET = 25


@pytest.fixture
def mh(db: None) -> Game:
    call_command("import_catalog", "games/monster_hunter/catalog.json", verbosity=0)
    return Game.objects.get(slug="monster-hunter")


@pytest.fixture
def recharge(db: None) -> Game:
    call_command("import_catalog", "games/recharge/catalog.json", verbosity=0)
    return Game.objects.get(slug="recharge")


@pytest.fixture
def deck(owner: Any, mh: Game) -> Deck:
    return deck_create(owner=owner, game=mh, name="Work in progress")


def url(name: str, deck: Deck, *args: Any) -> str:
    return reverse(f"decks:{name}", args=[deck.public_id, *args])


def version_in(html: str) -> int:
    found = re.search(r'id="deck-version" name="version" value="(\d+)"', html)
    assert found, "the answer carries the new version"
    return int(found.group(1))


def legal_flag(html: str) -> str:
    found = re.search(r'id="legality-panel"[^>]*data-legal="(yes|no)"', html)
    assert found, "the answer carries the legality panel"
    return found.group(1)


def add(client: Client, deck: Deck, version: int, card: Card, zone: str, **extra: Any) -> Any:
    data = {"version": version, "card": card.code, "zone": zone, **extra}
    return client.post(url("edit-add", deck), data, **HTMX)


def only_entry(deck: Deck) -> DeckEntry:
    return DeckEntry.objects.get(deck=deck)


# --- who may edit ----------------------------------------------------------------------------


def test_only_the_owner_opens_the_editor(
    deck: Deck, owner_client: Client, friend_client: Client, stranger_client: Client
) -> None:
    assert owner_client.get(url("edit", deck)).status_code == 200
    for client in (friend_client, stranger_client):
        assert client.get(url("edit", deck)).status_code == 404
        assert client.get(url("edit-search", deck) + "?q=a").status_code == 404


def test_every_edit_endpoint_is_404_to_others_and_sends_anonymous_to_log_in(
    deck: Deck, mh: Game, owner_client: Client, friend_client: Client, stranger_client: Client
) -> None:
    card = Card.objects.filter(game=mh, card_type="monster").first()
    assert card is not None
    add(owner_client, deck, 1, card, "main")
    entry = only_entry(deck)
    posts = {
        url("edit-add", deck): {"card": card.code, "zone": "main"},
        url("edit-entry", deck, entry.pk): {"delta": "1"},
        url("edit-settings", deck): {"name": "Mine now", "visibility": "public"},
        url("edit-extra", deck, "chips"): {"chip": "5"},
        url("import-into", deck): {"fmt": "text", "text": "1 Reedskipper"},
        url("delete", deck): {},
        url("restore", deck, 1): {},
    }
    for target, data in posts.items():
        for client in (friend_client, stranger_client):
            response = client.post(target, {**data, "version": 2}, **HTMX)
            assert response.status_code == 404, target
        anonymous = Client().post(target, {**data, "version": 2})
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    deck.refresh_from_db()
    assert deck.version == 2 and deck.name == "Work in progress"
    assert only_entry(deck).quantity == 1


# --- the editor flow -------------------------------------------------------------------------


def test_adding_cards_turns_a_monster_hunter_deck_from_errors_to_legal(
    deck: Deck, mh: Game, owner_client: Client
) -> None:
    page = owner_client.get(url("edit", deck)).content.decode()
    assert legal_flag(page) == "no"
    version = version_in(page)
    hunter = Card.objects.filter(game=mh, card_type="hunter").order_by("code").first()
    assert hunter is not None
    response = add(owner_client, deck, version, hunter, "hunter")
    html = response.content.decode()
    assert response.status_code == 200 and legal_flag(html) == "no"
    assert 'hx-swap-oob="true"' in html and 'id="deck-stats"' in html
    version = version_in(html)
    main = list(Card.objects.filter(game=mh).exclude(card_type="hunter").order_by("code")[:10])
    for card in main:
        response = add(owner_client, deck, version, card, "main", delta="4")
        assert response.status_code == 200, response.content
        version = version_in(response.content.decode())
    html = response.content.decode()
    assert legal_flag(html) == "yes"
    assert "Legal: this deck follows every construction rule." in html
    deck.refresh_from_db()
    assert deck.is_legal and deck.card_count == 40 and deck.version == version
    # one copy more breaks it again, and the panel says which rule
    entry = DeckEntry.objects.filter(deck=deck, zone="main").first()
    assert entry is not None
    response = owner_client.post(
        url("edit-entry", deck, entry.pk), {"version": version, "delta": "1"}, **HTMX
    )
    html = response.content.decode()
    assert legal_flag(html) == "no" and "monster-hunter.md:" in html
    assert 'class="list-group-item entry-row has-problem"' in html


def test_the_quantity_field_sets_copies_and_zero_removes(
    deck: Deck, mh: Game, owner_client: Client
) -> None:
    card = Card.objects.filter(game=mh, card_type="weapon").first()
    assert card is not None
    add(owner_client, deck, 1, card, "main")
    entry = only_entry(deck)
    response = owner_client.post(
        url("edit-entry", deck, entry.pk), {"version": 2, "quantity": "3"}, **HTMX
    )
    assert response.status_code == 200 and only_entry(deck).quantity == 3
    response = owner_client.post(
        url("edit-entry", deck, entry.pk), {"version": 3, "quantity": "0"}, **HTMX
    )
    assert response.status_code == 200
    assert not DeckEntry.objects.filter(deck=deck).exists()


def test_an_entry_moves_to_another_zone(deck: Deck, mh: Game, owner_client: Client) -> None:
    hunter = Card.objects.filter(game=mh, card_type="hunter").first()
    assert hunter is not None
    add(owner_client, deck, 1, hunter, "main")  # misplaced: the panel says where it belongs
    entry = only_entry(deck)
    page = owner_client.get(url("edit", deck)).content.decode()
    assert "does not take this card" in page
    response = owner_client.post(
        url("edit-entry", deck, entry.pk), {"version": 2, "zone": "hunter"}, **HTMX
    )
    assert response.status_code == 200
    assert only_entry(deck).zone == "hunter"


def test_a_printing_is_pinned_and_unpinned(
    recharge: Game, owner: Any, owner_client: Client
) -> None:
    card = Card.objects.get(game=recharge, code="RCD-001")
    printings = list(Printing.objects.filter(card=card).order_by("collector_number"))
    assert len(printings) == 2
    deck = deck_create(owner=owner, game=recharge, name="Pins")
    response = add(owner_client, deck, 1, card, "main", printing=str(printings[1].pk))
    assert response.status_code == 200
    assert only_entry(deck).printing == printings[1]
    html = response.content.decode()
    assert f'<option value="{printings[1].pk}" selected>' in html
    entry = only_entry(deck)
    owner_client.post(url("edit-entry", deck, entry.pk), {"version": 2, "printing": ""}, **HTMX)
    assert only_entry(deck).printing is None
    other = Printing.objects.filter(card__game=recharge).exclude(card=card).first()
    assert other is not None
    refused = owner_client.post(
        url("edit-entry", deck, only_entry(deck).pk),
        {"version": 3, "printing": str(other.pk)},
        **HTMX,
    )
    assert refused.status_code == 400 and b'data-field="printing"' in refused.content


def test_settings_are_saved_and_the_title_follows(
    deck: Deck, owner_client: Client, friend_client: Client
) -> None:
    response = owner_client.post(
        url("edit-settings", deck),
        {"version": 1, "name": "Ember rush", "visibility": "public", "description": "*fast*"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert '<span id="deck-title" hx-swap-oob="true">Ember rush</span>' in html
    assert "Saved." in html
    deck.refresh_from_db()
    assert (deck.name, deck.visibility, deck.description) == ("Ember rush", "public", "*fast*")
    assert b"<em>fast</em>" in friend_client.get(url("detail", deck)).content


# --- refusals --------------------------------------------------------------------------------


def test_a_stale_version_is_refused_with_409_and_the_reload_message(
    deck: Deck, owner: Any, mh: Game, owner_client: Client
) -> None:
    deck_update(deck=deck, user=owner, expected_version=1, name="Changed in another tab")
    card = Card.objects.filter(game=mh, card_type="monster").first()
    assert card is not None
    response = add(owner_client, deck, 1, card, "main")
    html = response.content.decode()
    assert response.status_code == 409
    assert str(errors.STALE_DECK) in html
    assert f'href="{url("edit", deck)}"' in html
    assert not DeckEntry.objects.filter(deck=deck).exists()
    # without htmx the editor page itself says so, with the same status
    plain = owner_client.post(
        url("edit-add", deck), {"version": 1, "card": card.code, "zone": "main"}
    )
    assert plain.status_code == 409 and str(errors.STALE_DECK) in plain.content.decode()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"quantity": "many"}, "quantity"),
        ({"quantity": "100"}, "quantity"),
        ({"quantity": "-1"}, "quantity"),
        ({"delta": "x"}, "delta"),
        ({"zone": "graveyard"}, "zone"),
        ({"printing": "abc"}, "printing"),
        ({}, "entry"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(
    deck: Deck, mh: Game, owner_client: Client, data: dict[str, str], field: str
) -> None:
    card = Card.objects.filter(game=mh, card_type="monster").first()
    assert card is not None
    add(owner_client, deck, 1, card, "main")
    entry = only_entry(deck)
    response = owner_client.post(url("edit-entry", deck, entry.pk), {"version": 2, **data}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 400
    # the alert names the field, and so does the error drawn under the entry's own row
    assert f'data-status="400" data-field="{field}"' in html
    row = re.search(rf'<li[^>]*data-entry="{entry.pk}"[^>]*>(.*?)</li>', html, re.S)
    assert row, "the answer draws the entry's row again"
    assert f'class="invalid-feedback d-block entry-error" data-field="{field}"' in row.group(1)
    deck.refresh_from_db()
    assert deck.version == 2 and only_entry(deck).quantity == 1


def test_bad_additions_are_400_with_the_reason(
    deck: Deck, mh: Game, recharge: Game, owner_client: Client
) -> None:
    foreign = Card.objects.filter(game=recharge).first()
    assert foreign is not None
    monster = Card.objects.filter(game=mh, card_type="monster").first()
    assert monster is not None
    cases = [
        ({"card": foreign.code, "zone": "main"}, "card", errors.CARD_NOT_VISIBLE),
        ({"card": monster.code, "zone": "sideboard"}, "zone", errors.UNKNOWN_ZONE),
        ({"card": monster.code, "zone": "main", "delta": "100"}, "delta", errors.BAD_QUANTITY),
        ({"card": "", "zone": "main"}, "card", None),
        ({"zone": "main", "card": monster.code, "version": "v1"}, "version", None),
    ]
    for data, field, message in cases:
        response = owner_client.post(url("edit-add", deck), {"version": 1, **data}, **HTMX)
        html = response.content.decode()
        assert response.status_code == 400, data
        assert f'data-field="{field}"' in html, data
        if message is not None:
            assert str(message) in html
    assert not DeckEntry.objects.filter(deck=deck).exists()


def test_bad_settings_are_shown_beside_their_field(deck: Deck, owner_client: Client) -> None:
    response = owner_client.post(
        url("edit-settings", deck),
        {"version": 1, "name": "x" * 121, "visibility": "public"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="settings-name-feedback"' in html and "at most 120 characters" in html
    response = owner_client.post(
        url("edit-settings", deck),
        {"version": 1, "name": "ok", "visibility": "public", "description": "d" * 20_001},
        **HTMX,
    )
    assert response.status_code == 400 and b'data-field="description"' in response.content
    deck.refresh_from_db()
    assert deck.name == "Work in progress"


def test_csrf_is_enforced_on_editor_posts(deck: Deck, owner: Any, mh: Game) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    card = Card.objects.filter(game=mh, card_type="monster").first()
    assert card is not None
    data = {"version": 1, "card": card.code, "zone": "main"}
    assert client.post(url("edit-add", deck), data, **HTMX).status_code == 403
    page = client.get(url("edit", deck)).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page)
    assert token, "base.html hands htmx the token"
    response = client.post(url("edit-add", deck), data, HTTP_X_CSRFTOKEN=token.group(1), **HTMX)
    assert response.status_code == 200


def test_without_htmx_a_change_redirects_back_to_the_editor(
    deck: Deck, mh: Game, owner_client: Client
) -> None:
    card = Card.objects.filter(game=mh, card_type="monster").first()
    assert card is not None
    response = owner_client.post(
        url("edit-add", deck), {"version": 1, "card": card.code, "zone": "main"}
    )
    assert response.status_code == 302 and response["Location"] == url("edit", deck)


def test_an_editor_change_costs_a_bounded_number_of_queries(
    deck: Deck, mh: Game, owner_client: Client
) -> None:
    cards = list(Card.objects.filter(game=mh).exclude(card_type="hunter").order_by("code"))
    counts = []
    version = 1
    for size in (5, 40):
        for card in cards[len(counts) * 5 : size]:
            response = add(owner_client, deck, version, card, "main")
            version = version_in(response.content.decode())
        with CaptureQueriesContext(connection) as queries:
            response = add(owner_client, deck, version, cards[0], "main")
        version = version_in(response.content.decode())
        counts.append(len(queries))
    assert counts[0] == counts[1] <= EDIT_BUDGET


# --- search ----------------------------------------------------------------------------------


def test_the_search_finds_cards_by_japanese_or_english_name_with_add_buttons(
    deck: Deck, mh: Game, owner_client: Client
) -> None:
    english = owner_client.get(url("edit-search", deck) + "?q=reedskip", **HTMX).content.decode()
    assert 'data-card="MHD-007"' in english
    assert 'data-add-to="main"' in english and 'data-add-to="hunter"' not in english
    japanese = owner_client.get(url("edit-search", deck) + "?q=リードスキッパー", **HTMX)
    assert b'data-card="MHD-007"' in japanese.content
    hunters = owner_client.get(url("edit-search", deck) + "?type=hunter", **HTMX).content.decode()
    assert 'data-add-to="hunter"' in hunters and 'data-add-to="main"' not in hunters


def test_the_search_is_bounded(deck: Deck, owner_client: Client) -> None:
    def search(query: str) -> str:
        return owner_client.get(url("edit-search", deck) + query, **HTMX).content.decode()

    # under the limit: every match listed, and no notice
    weapons = search("?type=weapon")
    assert 'data-results="27"' in weapons and weapons.count('class="result"') == 27
    assert "Showing the first" not in weapons
    # one letter matches more of the game than the limit: the first 30 and a notice
    listed = search("?q=e")
    assert 'data-results="30"' in listed and listed.count('class="result"') == 30
    assert "Showing the first 30 cards" in listed
    # a code matches whole, never as a prefix: "MHD" is not a way to list the whole game
    prefix = search("?q=MHD")
    assert 'data-results="0"' in prefix and "No card of this game matches" in prefix
    assert 'class="result"' not in prefix
    exact = search("?q=mhd-007")
    assert 'data-results="1"' in exact and 'data-card="MHD-007"' in exact


# --- the Recharge chips editor ---------------------------------------------------------------


@pytest.fixture
def rc_deck(recharge: Game, owner: Any) -> Deck:
    product = Product.objects.get(game=recharge, code="rc-demo-heroes-united")
    deck = deck_from_product(product=product, user=owner)
    # without the starting chips a product's deck gets, so the chip rules have work to do
    Deck.objects.filter(pk=deck.pk).update(extras={})
    deck.refresh_from_db()
    return deck


def test_a_deck_started_from_a_recharge_product_has_a_legal_chip_set(
    recharge: Game, owner: Any
) -> None:
    product = Product.objects.get(game=recharge, code="rc-demo-heroes-united")
    deck = deck_from_product(product=product, user=owner)
    chips_of = deck.extras["chips"]
    assert (len(chips_of), sum(chips_of), min(chips_of), max(chips_of)) == (20, 60, 1, 5)
    assert deck.is_legal


def test_a_chip_value_above_5_is_saved_and_explained_not_dropped(
    rc_deck: Deck, owner_client: Client
) -> None:
    response = chips(owner_client, rc_deck, 1, chip=["5"] * 9 + ["9"])
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-problem="chip-value"' in html
    rc_deck.refresh_from_db()
    assert rc_deck.extras["chips"] == [5] * 9 + [9]
    page = owner_client.get(url("edit", rc_deck)).content.decode()
    assert 'name="chip" value="9"' in page


def test_a_chip_value_beyond_what_is_stored_is_refused_with_the_reason(
    rc_deck: Deck, owner_client: Client
) -> None:
    response = chips(owner_client, rc_deck, 1, chip=["5", "150"])
    assert response.status_code == 400
    assert "Chip 2 is 150; write a value from 1 to 5." in response.content.decode()
    rc_deck.refresh_from_db()
    assert rc_deck.extras == {}


def test_the_chip_fields_leave_the_bounds_to_the_server(
    rc_deck: Deck, owner_client: Client
) -> None:
    """A browser silently refuses to send a form whose number field is out of its min/max."""
    chips(owner_client, rc_deck, 1, chip=["5", "4"])
    page = owner_client.get(url("edit", rc_deck)).content.decode()
    fields = re.findall(r'<input type="number" name="(?:chip|add_count)"[^>]*>', page)
    assert len(fields) == 3
    assert not any("max=" in f or "min=" in f for f in fields)


def chips(client: Client, deck: Deck, version: int, **data: Any) -> Any:
    return client.post(url("edit-extra", deck, "chips"), {"version": version, **data}, **HTMX)


def test_the_chips_editor_turns_the_chip_rules_green(rc_deck: Deck, owner_client: Client) -> None:
    page = owner_client.get(url("edit", rc_deck)).content.decode()
    assert 'id="chips-editor"' in page and 'data-problem="chip-total"' in page
    response = chips(owner_client, rc_deck, 1, op="add", add_value="5", add_count="10")
    html = response.content.decode()
    assert response.status_code == 200
    assert "chip-" not in "".join(re.findall(r'data-problem="([^"]+)"', html))
    assert "<span data-chip-count>10</span>" in html and "<span data-chip-total>50</span>" in html
    rc_deck.refresh_from_db()
    assert rc_deck.extras["chips"] == [5] * 10 and rc_deck.is_legal
    response = chips(owner_client, rc_deck, 2, chip=["5"] * 10, op="add", add_value="5")
    assert "<span data-chip-total>55</span>" in response.content.decode()
    assert legal_flag(response.content.decode()) == "yes"


def test_too_many_chips_are_kept_and_explained(rc_deck: Deck, owner_client: Client) -> None:
    response = chips(owner_client, rc_deck, 1, chip=["2"] * 26)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-problem="chip-count"' in html and legal_flag(html) == "no"
    rc_deck.refresh_from_db()
    assert len(rc_deck.extras["chips"]) == 26


def test_a_chip_is_removed_by_its_button(rc_deck: Deck, owner_client: Client) -> None:
    chips(owner_client, rc_deck, 1, chip=["5", "4", "3"])
    chips(owner_client, rc_deck, 2, chip=["5", "4", "3"], remove="1")
    rc_deck.refresh_from_db()
    assert rc_deck.extras["chips"] == [5, 3]


def test_a_chip_that_is_not_a_number_is_a_400(rc_deck: Deck, owner_client: Client) -> None:
    response = chips(owner_client, rc_deck, 1, chip=["5", "five"])
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-field="chips"' in html
    assert str(CHIP_NOT_A_NUMBER % {"n": 2, "value": "five"}) in html
    rc_deck.refresh_from_db()
    assert rc_deck.version == 1 and "chips" not in rc_deck.extras


def test_games_without_chips_have_no_chips_editor(deck: Deck, owner_client: Client) -> None:
    assert b'id="chips-editor"' not in owner_client.get(url("edit", deck)).content
    assert chips(owner_client, deck, 1, chip=["5"]).status_code == 404


def test_entry_specs_from_other_decks_are_not_reachable(
    deck: Deck, owner: Any, friend: Any, mh: Game, owner_client: Client
) -> None:
    card = Card.objects.filter(game=mh, card_type="monster").first()
    assert card is not None
    theirs = deck_create(owner=friend, game=mh, name="Theirs", entries=[EntrySpec(card, "main", 2)])
    their_entry = DeckEntry.objects.get(deck=theirs)
    response = owner_client.post(
        url("edit-entry", deck, their_entry.pk), {"version": 1, "delta": "1"}, **HTMX
    )
    assert response.status_code == 400 and b'data-field="entry"' in response.content
    assert DeckEntry.objects.get(deck=theirs).quantity == 2


def test_switching_to_tournament_rules_updates_the_header_at_once(
    rc_deck: Deck, owner_client: Client
) -> None:
    page = owner_client.get(url("edit", rc_deck)).content.decode()
    assert re.search(r'id="deck-variant" data-variant="basic">\s*Basic rules', page)
    response = owner_client.post(
        url("edit-settings", rc_deck),
        {"version": 1, "name": rc_deck.name, "visibility": "private", "variant": "tournament"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(
        r'id="deck-variant" data-variant="tournament" hx-swap-oob="true">\s*Tournament rules', html
    )
    assert 'id="deck-updated" hx-swap-oob="true"' in html


def test_the_updated_time_is_marked_for_the_script_that_keeps_it_moving(
    rc_deck: Deck, owner_client: Client
) -> None:
    page = owner_client.get(url("detail", rc_deck)).content.decode()
    stamp = rc_deck.updated_at.isoformat()
    assert f'<span data-relative-time="{stamp}">' in page
    assert "decks/relative_time.js" in page
