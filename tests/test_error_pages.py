"""Styled, translated error pages with a way home, and a favicon (no 404 logged per page)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from tests.conftest import demo_deck

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "This page does not exist"), ("ja", "このページは存在しないか")],
)
def test_a_missing_page_is_the_styled_404_in_the_readers_language(
    client: Client, language: str, text: str
) -> None:
    client.cookies["django_language"] = language
    response = client.get("/decks/no-such-deck/")
    page = response.content.decode()
    assert response.status_code == 404
    assert 'id="error-page" data-status="404"' in page and text in page
    assert 'href="/" data-home' in page and "navbar" in page


@pytest.mark.usefixtures("committed_catalogs")
def test_a_logged_out_visitor_opening_a_private_deck_is_offered_the_login(
    client: Client, owner: Any
) -> None:
    deck = demo_deck("mattsan", owner, visibility="private")
    page = client.get(deck.get_absolute_url()).content.decode()
    assert 'data-status="404"' in page
    assert f"/accounts/login/?next=/decks/{deck.public_id}/" in page


@pytest.mark.parametrize(
    ("language", "text"), [("en", "Something went wrong"), ("ja", "問題が発生")]
)
def test_the_500_page_is_styled_and_translated_without_a_request_context(
    language: str, text: str
) -> None:
    with translation.override(language):
        response = server_error(RequestFactory().get("/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert 'data-status="500"' in page and text in page and 'href="/" data-home' in page


def test_every_page_links_the_favicon_and_favicon_ico_finds_it(client: Client) -> None:
    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg"' in page
    response = client.get("/favicon.ico")
    assert (response.status_code, response["Location"]) == (301, "/static/favicon.svg")
