from __future__ import annotations

import pytest

from catalog.models import Card


@pytest.mark.django_db
def test_it_starts_with_an_empty_catalog() -> None:
    assert Card.objects.count() == 0
