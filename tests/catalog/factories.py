"""factory-boy factories for the catalog, shared by every test that needs catalog rows.

Games come from the registry through ``game_sync`` (as the importers make them). Cards and
printings get attributes that are valid for their game and type, and every factory checks its
attributes against the game's schema before saving, so a test cannot build a card the importer
would refuse.

    card = CardFactory(game=GameFactory(slug="recharge"), card_type="power")
    PrintingFactory(card=card, variant="power-plus")
"""

from __future__ import annotations

from typing import Any

import factory

from catalog.importers.write import game_sync
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem
from catalog.spec import get_game

# One valid attribute mapping per (game, card type): the smallest that passes the schema.
SAMPLE_ATTRIBUTES: dict[tuple[str, str], dict[str, Any]] = {
    ("monster-hunter", "hunter"): {"attack": 2, "movement": 2, "reach": 1, "item_icons": ["meat"]},
    ("monster-hunter", "monster"): {
        "attack": 3,
        "movement": 1,
        "reach": 1,
        "hp": 8,
        "rank": 2,
        "material_points": 2,
    },
    ("monster-hunter", "weapon"): {
        "weapon_icon": "great-sword",
        "attack": 3,
        "movement": 0,
        "reach": 1,
        "item_icons": [],
        "cost": 2,
    },
    ("monster-hunter", "armor"): {"defence": 1, "cost": 1},
    ("monster-hunter", "item"): {"item_icons": ["medicine"]},
    ("ouka-fushin", "protagonist"): {
        "character": "太公望",
        "school": "goton",
        **{f"{a}_{n}": n for a in ("combat", "exploration", "negotiation") for n in (1, 2, 3)},
    },
    ("ouka-fushin", "mission"): {"climax_types": ["戦闘"], "bonus": 20},
    ("ouka-fushin", "character"): {"character": "哪吒", "destiny": 2, "school": "shoki"},
    ("ouka-fushin", "story"): {
        "story_kind": "normal",
        "keywords": ["旅"],
        "target": 5,
        "ability": "combat",
        "points": 10,
    },
    ("ouka-fushin", "climax"): {"conditions": ["旅"], "bonus": 30, "climax_type": "戦闘"},
    ("recharge", "hero"): {"power": 30, "left": ["red"], "right": ["blue"]},
    ("recharge", "teamwork"): {"power": 40, "left": ["red", "yellow"], "right": ["green"]},
    ("recharge", "power"): {
        "left": ["red"],
        "left_power": 10,
        "right": ["blue"],
        "right_power": 20,
    },
    ("unmatched", "character"): {"hp": 16, "move": 2, "ranged": False, "hero_count": 1},
    ("unmatched", "attack"): {"value": 3},
    ("unmatched", "defense"): {"value": 2},
    ("unmatched", "versatile"): {"value": 2},
    ("unmatched", "scheme"): {},
    ("mattsan", "unit"): {"hp": 5, "soul": 2},
    ("mattsan", "trump"): {"cost": 2},
    ("mattsan", "trap"): {},
    ("mattsan", "terrain"): {"sideways": True},
}
SAMPLE_PRINTING_ATTRIBUTES: dict[str, dict[str, Any]] = {
    "unmatched": {"fighter": "any", "boost": 1},
}


def sample_attributes(slug: str, card_type: str) -> dict[str, Any]:
    return dict(SAMPLE_ATTRIBUTES.get((slug, card_type), {}))


class GameFactory(factory.django.DjangoModelFactory[Game]):
    """The Game row of a registered game (``slug``), made as the importers make it."""

    class Meta:
        model = Game

    slug = "unmatched"

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        return game_sync(kwargs["slug"])


class CardSetFactory(factory.django.DjangoModelFactory[CardSet]):
    class Meta:
        model = CardSet

    game = factory.SubFactory(GameFactory)
    code = factory.Sequence(lambda n: f"set-{n}")
    name_en = factory.Sequence(lambda n: f"Set {n}")
    name_ja = factory.Sequence(lambda n: f"セット{n}")
    kind = CardSet.Kind.EXPANSION
    source = "https://example.com/sets"


class CardFactory(factory.django.DjangoModelFactory[Card]):
    class Meta:
        model = Card

    game = factory.SubFactory(GameFactory)
    code = factory.Sequence(lambda n: f"card-{n}")
    name_en = factory.Sequence(lambda n: f"Card {n}")
    name_ja = factory.Sequence(lambda n: f"カード{n}")
    card_type = factory.LazyAttribute(lambda o: get_game(o.game.slug).card_types[0].code)
    attributes = factory.LazyAttribute(lambda o: sample_attributes(o.game.slug, o.card_type))
    source = "https://example.com/cards"

    @classmethod
    def _create(cls, model_class: type[Card], *args: Any, **kwargs: Any) -> Card:
        spec = get_game(kwargs["game"].slug)
        kwargs["attributes"] = spec.validate_card_attributes(
            kwargs["card_type"], kwargs.get("attributes", {})
        )
        return super()._create(model_class, *args, **kwargs)


class PrintingFactory(factory.django.DjangoModelFactory[Printing]):
    class Meta:
        model = Printing

    card = factory.SubFactory(CardFactory)
    card_set = factory.SubFactory(CardSetFactory, game=factory.SelfAttribute("..card.game"))
    collector_number = factory.Sequence(lambda n: f"{n:03d}")
    variant = ""
    attributes = factory.LazyAttribute(
        lambda o: dict(SAMPLE_PRINTING_ATTRIBUTES.get(o.card.game.slug, {}))
    )

    @classmethod
    def _create(cls, model_class: type[Printing], *args: Any, **kwargs: Any) -> Printing:
        spec = get_game(kwargs["card"].game.slug)
        kwargs["attributes"] = spec.validate_printing_attributes(kwargs.get("attributes", {}))
        return super()._create(model_class, *args, **kwargs)


class ProductFactory(factory.django.DjangoModelFactory[Product]):
    class Meta:
        model = Product

    game = factory.SubFactory(GameFactory)
    code = factory.Sequence(lambda n: f"product-{n}")
    name_en = factory.Sequence(lambda n: f"Starter {n}")
    name_ja = factory.Sequence(lambda n: f"スターター{n}")
    kind = Product.Kind.STARTER
    source = "https://example.com/products"


class ProductItemFactory(factory.django.DjangoModelFactory[ProductItem]):
    class Meta:
        model = ProductItem

    product = factory.SubFactory(ProductFactory)
    printing = factory.SubFactory(
        PrintingFactory, card__game=factory.SelfAttribute("...product.game")
    )
    zone = "main"
    quantity = 1
