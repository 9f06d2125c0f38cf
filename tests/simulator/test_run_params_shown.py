"""A run's parameters as the run page lists them: yes/no in the reader's language, never
Python's ``True``/``False``."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation


@pytest.mark.parametrize(("language", "yes", "no"), [("en", "Yes", "No"), ("ja", "はい", "いいえ")])
def test_a_yes_no_parameter_is_shown_in_words(language: str, yes: str, no: str) -> None:
    rows = [("Chain power cards", False), ("Soul stands up", True), ("Turns", 12)]
    with translation.override(language):
        html = render_to_string("simulator/_params.html", {"param_rows": rows})
    assert "False" not in html and "True" not in html
    assert f'font-monospace">{no}</dd>' in html and f'font-monospace">{yes}</dd>' in html
    assert 'font-monospace">12</dd>' in html
