"""Every page carries a Content Security Policy, and the templates need no inline code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

TEMPLATE_DIRS = [
    Path(settings.BASE_DIR) / "templates",
    *Path(settings.BASE_DIR).glob("games/*/templates"),
]

# What the policy forbids in our own templates: code in the page instead of a static file.
INLINE_CODE = {
    "a <script> without src": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "a <style> element": re.compile(r"<style\b", re.IGNORECASE),
    "an on… event attribute": re.compile(r"\son[a-z]+\s*=\s*[\"']", re.IGNORECASE),
    "an hx-on attribute (htmx evaluates it)": re.compile(r"\bhx-on[:-]"),
    # an event name followed by [condition]; a "from:input[type=search]" selector is fine
    "an htmx trigger filter (htmx evaluates it)": re.compile(r"(?:hx-trigger=\"|,\s*)[\w:.-]+\["),
    "a js: value (htmx evaluates it)": re.compile(r"hx-(vals|headers)=['\"]\s*(js|javascript):"),
}


def _directives(header: str) -> dict[str, list[str]]:
    parts = (part.strip().split() for part in header.split(";") if part.strip())
    return {words[0]: words[1:] for words in parts}


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/"])
def test_pages_forbid_inline_scripts_and_style_elements(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    policy = _directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


def test_the_api_answers_carry_the_policy_too(client: Client) -> None:
    response = client.get("/api/v1/games/")
    assert _directives(response["Content-Security-Policy"])["script-src"] == ["'self'"]


def test_only_the_api_docs_pages_allow_inline_code(client: Client) -> None:
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    assert "'unsafe-inline'" in _directives(response["Content-Security-Policy"])["script-src"]


@pytest.mark.parametrize("rule", sorted(INLINE_CODE))
def test_no_template_needs_code_the_policy_forbids(rule: str) -> None:
    found = [
        f"{path}:{text[: match.start()].count(chr(10)) + 1}"
        for directory in TEMPLATE_DIRS
        for path in sorted(directory.rglob("*.html"))
        for text in [path.read_text(encoding="utf-8")]
        for match in INLINE_CODE[rule].finditer(text)
    ]
    assert found == []


def test_htmx_is_told_not_to_evaluate_code_nor_inject_styles(client: Client) -> None:
    body = client.get("/").content.decode()
    config = """'{"allowEval": false, "includeIndicatorStyles": false}'"""
    assert f'<meta name="htmx-config" content={config}>' in body
