"""Small factories for the catalog API tests (tests/catalog/factories.py is the shared set).

Pass ``game=game_sync("<slug>")``; attributes must suit the game's schema for the card type.
"""

from __future__ import annotations

import factory

from catalog.models import Card, CardSet, Printing, Product, ProductItem


class CardSetFactory(factory.django.DjangoModelFactory[CardSet]):
    class Meta:
        model = CardSet

    code = factory.Sequence(lambda n: f"set-{n}")
    name_en = factory.Sequence(lambda n: f"Set {n}")
    name_ja = factory.Sequence(lambda n: f"セット{n}")
    kind = CardSet.Kind.EXPANSION
    source = "tests"


class CardFactory(factory.django.DjangoModelFactory[Card]):
    class Meta:
        model = Card

    code = factory.Sequence(lambda n: f"card-{n}")
    name_en = factory.Sequence(lambda n: f"Card {n}")
    name_ja = factory.Sequence(lambda n: f"カード{n}")
    source = "tests"


class PrintingFactory(factory.django.DjangoModelFactory[Printing]):
    class Meta:
        model = Printing

    collector_number = factory.Sequence(lambda n: f"{n:03d}")


class ProductFactory(factory.django.DjangoModelFactory[Product]):
    class Meta:
        model = Product

    code = factory.Sequence(lambda n: f"product-{n}")
    name_en = factory.Sequence(lambda n: f"Starter {n}")
    name_ja = factory.Sequence(lambda n: f"スターター{n}")
    kind = Product.Kind.STARTER
    source = "tests"


class ProductItemFactory(factory.django.DjangoModelFactory[ProductItem]):
    class Meta:
        model = ProductItem

    zone = "main"
    quantity = 1
