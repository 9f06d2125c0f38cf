"""Output serializers of the catalog API: one per operation (a list and its detail may share).

Every catalog object says whether it was invented for demonstration (``is_demo``) and where it
comes from (``source``), and gives its name in both languages plus ``name`` in the language of
the request (``Accept-Language``). Labels (types, kinds, attribute names) follow that language.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any
from urllib.parse import quote

from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalog.attributes import AttributeSchema, described
from catalog.filters import SORT_CHOICES
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem
from catalog.spec import Facet, GameSpec, get_game
from games.official import official_product

NAME_HELP = _("The name in the request's language (Accept-Language), else the other one.")
DEMO_HELP = _("Invented for demonstration: not an official card, set or product.")
SOURCE_HELP = _("Where this entry comes from.")
ATTRIBUTES_HELP = _("Stored attribute codes, as the game's schema defines them.")
ATTRIBUTES_DISPLAY_HELP = _("Each attribute with a value, labelled in the request's language.")


#: stands for a card's code while its URL pattern is reversed once per page
_CODE_MARK = "0code0mark0"


def _api_url(serializer: serializers.BaseSerializer[Any], name: str, *args: str) -> str:
    path = reverse(f"catalog-api:{name}", args=args)
    request = serializer.context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


def _displayed(schema: type[AttributeSchema], attributes: dict[str, Any]) -> list[dict[str, str]]:
    return [
        {"key": key, "label": label, "value": value}
        for key, label, value in described(schema, attributes)
    ]


# --- Shared pieces --------------------------------------------------------------------------


class NamedSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(read_only=True, help_text=NAME_HELP)
    name_en = serializers.CharField(read_only=True)
    name_ja = serializers.CharField(read_only=True)


class ProvenanceSerializer(serializers.Serializer[Any]):
    is_demo = serializers.BooleanField(read_only=True, help_text=DEMO_HELP)
    # "source" and "label" are also attributes of DRF's Field; as declared fields they are
    # popped off the class by the serializer metaclass, which the stubs do not know.
    source = serializers.CharField(read_only=True, help_text=SOURCE_HELP)  # type: ignore[assignment]


class AttributeDisplaySerializer(serializers.Serializer[tuple[str, str, str]]):
    key = serializers.CharField(read_only=True)
    label = serializers.CharField(read_only=True)  # type: ignore[assignment]
    value = serializers.CharField(read_only=True, help_text=_("As a person reads it."))


class CodeLabelSerializer(serializers.Serializer[tuple[str, str]]):
    code = serializers.CharField(read_only=True)
    label = serializers.CharField(read_only=True)  # type: ignore[assignment]


# --- Games ----------------------------------------------------------------------------------


class GameOutputSerializer(NamedSerializer):
    slug = serializers.SlugField(read_only=True)
    publisher = serializers.CharField(source="spec.publisher", read_only=True)
    years = serializers.CharField(source="spec.years", read_only=True)
    set_count = serializers.IntegerField(read_only=True)
    card_count = serializers.IntegerField(read_only=True)
    demo_card_count = serializers.IntegerField(
        read_only=True, help_text=_("How many of the cards are invented for demonstration.")
    )
    printing_count = serializers.IntegerField(read_only=True)
    product_count = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, game: Game) -> str:
        return _api_url(self, "game-detail", game.slug)


class AttributeInfoSerializer(serializers.Serializer[tuple[str, str]]):
    key = serializers.CharField(read_only=True)
    label = serializers.CharField(read_only=True)  # type: ignore[assignment]


class CardTypeInfoSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(read_only=True)
    label = serializers.CharField(read_only=True)  # type: ignore[assignment]
    attributes = AttributeInfoSerializer(many=True, read_only=True)


class FacetInfoSerializer(serializers.Serializer[Facet]):
    key = serializers.CharField(read_only=True)
    label = serializers.CharField(read_only=True)  # type: ignore[assignment]
    kind = serializers.ChoiceField(choices=["choice", "list", "range", "bool"], read_only=True)
    on = serializers.ChoiceField(
        choices=["card", "printing"],
        read_only=True,
        help_text=_("Whether the value lives on the card or on its printings."),
    )
    choices = CodeLabelSerializer(many=True, read_only=True)
    parameters = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text=_("The query parameters that filter the card list on this facet."),
    )


def _schema_info(schema: type[AttributeSchema]) -> list[dict[str, str]]:
    return [{"key": key, "label": str(f.label or key)} for key, f in schema.base_fields.items()]


def _facet_info(facet: Facet) -> dict[str, Any]:
    ranged = facet.kind == "range"
    parameters = [f"{facet.key}_min", f"{facet.key}_max"] if ranged else [facet.key]
    return {
        "key": facet.key,
        "label": str(facet.label),
        "kind": facet.kind,
        "on": facet.on,
        "choices": [{"code": code, "label": str(label)} for code, label in facet.choices],
        "parameters": parameters,
    }


class GameDetailOutputSerializer(GameOutputSerializer):
    accent = serializers.CharField(source="spec.accent", read_only=True)
    card_types = serializers.SerializerMethodField()
    printing_attributes = serializers.SerializerMethodField()
    facets = serializers.SerializerMethodField()
    variants = serializers.SerializerMethodField()
    sort_keys = serializers.SerializerMethodField()

    @extend_schema_field(CardTypeInfoSerializer(many=True))
    def get_card_types(self, game: Game) -> list[dict[str, Any]]:
        return [
            {"code": t.code, "label": str(t.label), "attributes": _schema_info(t.schema)}
            for t in game.spec.card_types
        ]

    @extend_schema_field(AttributeInfoSerializer(many=True))
    def get_printing_attributes(self, game: Game) -> list[dict[str, str]]:
        return _schema_info(game.spec.printing_schema)

    @extend_schema_field(FacetInfoSerializer(many=True))
    def get_facets(self, game: Game) -> list[dict[str, Any]]:
        return [_facet_info(facet) for facet in game.spec.facets]

    @extend_schema_field(CodeLabelSerializer(many=True))
    def get_variants(self, game: Game) -> list[dict[str, str]]:
        return [{"code": code, "label": str(label)} for code, label in game.spec.variants]

    @extend_schema_field(CodeLabelSerializer(many=True))
    def get_sort_keys(self, game: Game) -> list[dict[str, str]]:
        return [{"code": code, "label": str(label)} for code, label in SORT_CHOICES]


# --- Sets -----------------------------------------------------------------------------------


class CardSetBriefSerializer(NamedSerializer, ProvenanceSerializer):
    code = serializers.SlugField(read_only=True)
    kind = serializers.CharField(read_only=True)


class CardSetOutputSerializer(CardSetBriefSerializer):
    game = serializers.SlugField(source="game.slug", read_only=True)
    kind_label = serializers.CharField(source="get_kind_display", read_only=True)
    release_date = serializers.DateField(read_only=True, allow_null=True)
    release_precision = serializers.CharField(
        read_only=True, help_text=_("How much of the release date is known: day, month or year.")
    )
    released = serializers.CharField(
        read_only=True, help_text=_("The release date at the precision it is known.")
    )
    official_size = serializers.IntegerField(read_only=True, allow_null=True)
    card_count = serializers.IntegerField(read_only=True)
    printing_count = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, card_set: CardSet) -> str:
        return _api_url(self, "set-detail", card_set.game.slug, card_set.code)


# --- Printings ------------------------------------------------------------------------------


class _PrintingSerializer(serializers.Serializer[Printing]):
    collector_number = serializers.CharField(read_only=True)
    variant = serializers.CharField(read_only=True)
    variant_label = serializers.SerializerMethodField()
    attributes = serializers.DictField(read_only=True, help_text=ATTRIBUTES_HELP)
    is_demo = serializers.BooleanField(read_only=True, help_text=DEMO_HELP)

    def get_variant_label(self, printing: Printing) -> str:
        return printing.card.spec.variant_label(printing.variant)


class PrintingBriefSerializer(_PrintingSerializer):
    set = serializers.SlugField(source="card_set.code", read_only=True)

    def to_representation(self, instance: Printing) -> dict[str, Any]:
        # By hand, the fields above in their order: see CardOutputSerializer.to_representation
        return {
            "collector_number": str(instance.collector_number),
            "variant": str(instance.variant),
            "variant_label": self.get_variant_label(instance),
            "attributes": {str(key): value for key, value in instance.attributes.items()},
            "is_demo": instance.is_demo,
            "set": str(instance.card_set.code),
        }


class PrintingInCardSerializer(_PrintingSerializer):
    set = CardSetBriefSerializer(source="card_set", read_only=True)
    attributes_display = serializers.SerializerMethodField()

    @extend_schema_field(AttributeDisplaySerializer(many=True))
    def get_attributes_display(self, printing: Printing) -> list[dict[str, str]]:
        return _displayed(printing.card.spec.printing_schema, printing.attributes)


class CardBriefSerializer(NamedSerializer, ProvenanceSerializer):
    game = serializers.SlugField(source="game.slug", read_only=True)
    code = serializers.SlugField(read_only=True)
    type = serializers.CharField(source="card_type", read_only=True)
    type_label = serializers.CharField(read_only=True)
    url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, card: Card) -> str:
        return _api_url(self, "card-detail", card.game.slug, card.code)


class PrintingOutputSerializer(PrintingInCardSerializer):
    card = CardBriefSerializer(read_only=True)


# --- Cards ----------------------------------------------------------------------------------


class CardOutputSerializer(CardBriefSerializer):
    attributes = serializers.DictField(read_only=True, help_text=ATTRIBUTES_HELP)
    attributes_display = serializers.SerializerMethodField()
    copy_limit = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text=_("Only where the card's own text changes the game's copy limit."),
    )
    printings = PrintingBriefSerializer(many=True, read_only=True)

    @extend_schema_field(AttributeDisplaySerializer(many=True))
    def get_attributes_display(self, card: Card) -> list[dict[str, str]]:
        spec: GameSpec = card.spec
        return _displayed(spec.schema_for(card.card_type), card.attributes)

    def _page_memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """What every card of one page shares (a game's spec, its URL pattern), made once:
        the list serialiser hands every card to this same instance."""
        memo: dict[Any, Any] = self.__dict__.setdefault("_memo", {})
        if key not in memo:
            memo[key] = make()
        return memo[key]

    def _card_url(self, slug: str, code: str) -> str:
        # reverse() once per page and game, then the code put in as reverse() would quote it
        head, tail = self._page_memo(
            ("url", slug),
            lambda: _api_url(self, "card-detail", slug, _CODE_MARK).split(_CODE_MARK),
        )
        return f"{head}{quote(code, safe=RFC3986_SUBDELIMS + '/~:@')}{tail}"

    def to_representation(self, instance: Card) -> dict[str, Any]:
        """The declared fields above, in their order, built by hand: DRF's generic walk over
        fields cost 0.3 ms a card, most of a 50-card search page at 211,000 printings (issue
        19). The declarations stay the schema; a test compares this with DRF's own output."""
        card = instance
        fields = self.fields
        slug = card.game.slug
        spec = self._page_memo(("spec", slug), lambda: get_game(slug))
        shown: dict[str, Any] = {
            "name": card.name,
            "name_en": card.name_en,
            "name_ja": card.name_ja,
            "is_demo": card.is_demo,
            "source": card.source,
            "game": slug,
            "code": card.code,
            "type": card.card_type,
            "type_label": str(spec.card_type_label(card.card_type)),
            "url": self._card_url(slug, card.code),
            "attributes": {str(key): value for key, value in card.attributes.items()},
            "attributes_display": _displayed(spec.schema_for(card.card_type), card.attributes),
            "copy_limit": card.copy_limit,
            "printings": fields["printings"].to_representation(card.printings.all()),
        }
        for name, field in fields.items():  # a subclass's own fields, by DRF's walk
            if name not in shown:
                value = field.get_attribute(card)
                shown[name] = None if value is None else field.to_representation(value)
        return shown


class ProductHoldingSerializer(serializers.Serializer[ProductItem]):
    """A product that contains the card: which printing, in which zone, how many."""

    code = serializers.SlugField(source="product.code", read_only=True)
    name = serializers.CharField(source="product.name", read_only=True, help_text=NAME_HELP)
    name_en = serializers.CharField(source="product.name_en", read_only=True)
    name_ja = serializers.CharField(source="product.name_ja", read_only=True)
    is_demo = serializers.BooleanField(
        source="product.is_demo", read_only=True, help_text=DEMO_HELP
    )
    source = serializers.CharField(  # type: ignore[assignment]
        source="product.source", read_only=True, help_text=SOURCE_HELP
    )
    kind = serializers.CharField(source="product.kind", read_only=True)
    kind_label = serializers.CharField(source="product.get_kind_display", read_only=True)
    set = serializers.SlugField(source="printing.card_set.code", read_only=True)
    collector_number = serializers.CharField(source="printing.collector_number", read_only=True)
    variant = serializers.CharField(source="printing.variant", read_only=True)
    zone = serializers.SlugField(read_only=True)
    quantity = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, item: ProductItem) -> str:
        return _api_url(self, "product-detail", item.product.game.slug, item.product.code)


class CardDetailOutputSerializer(CardOutputSerializer):
    printings = PrintingInCardSerializer(many=True, read_only=True)  # type: ignore[assignment]
    products = serializers.SerializerMethodField()

    @extend_schema_field(ProductHoldingSerializer(many=True))
    def get_products(self, card: Card) -> list[dict[str, Any]]:
        items = [item for p in card.printings.all() for item in p.product_items.all()]
        items.sort(key=lambda i: (i.product.release_date or date.max, i.product.code, i.zone))
        return [ProductHoldingSerializer(item, context=self.context).data for item in items]


# --- Products -------------------------------------------------------------------------------


class ProductOutputSerializer(NamedSerializer, ProvenanceSerializer):
    game = serializers.SlugField(source="game.slug", read_only=True)
    code = serializers.SlugField(read_only=True)
    kind = serializers.CharField(read_only=True)
    kind_label = serializers.CharField(source="get_kind_display", read_only=True)
    set = CardSetBriefSerializer(source="card_set", read_only=True, allow_null=True)
    release_date = serializers.DateField(read_only=True, allow_null=True)
    card_count = serializers.IntegerField(
        read_only=True, allow_null=True, help_text=_("Cards per product, as published.")
    )
    price_yen = serializers.IntegerField(read_only=True, allow_null=True)
    items_total = serializers.IntegerField(
        read_only=True, help_text=_("Cards listed in the catalog's contents (sum of quantities).")
    )
    url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, product: Product) -> str:
        return _api_url(self, "product-detail", product.game.slug, product.code)


class ProductItemOutputSerializer(serializers.Serializer[ProductItem]):
    card = serializers.SlugField(source="printing.card.code", read_only=True)
    name = serializers.CharField(source="printing.card.name", read_only=True, help_text=NAME_HELP)
    name_en = serializers.CharField(source="printing.card.name_en", read_only=True)
    name_ja = serializers.CharField(source="printing.card.name_ja", read_only=True)
    type = serializers.CharField(source="printing.card.card_type", read_only=True)
    type_label = serializers.CharField(source="printing.card.type_label", read_only=True)
    set = serializers.SlugField(source="printing.card_set.code", read_only=True)
    collector_number = serializers.CharField(source="printing.collector_number", read_only=True)
    variant = serializers.CharField(source="printing.variant", read_only=True)
    zone = serializers.SlugField(read_only=True)
    quantity = serializers.IntegerField(read_only=True)
    is_demo = serializers.BooleanField(
        source="printing.is_demo", read_only=True, help_text=DEMO_HELP
    )


class DataNoteSerializer(serializers.Serializer[Any]):
    en = serializers.CharField(read_only=True)
    ja = serializers.CharField(read_only=True)
    source = serializers.CharField(read_only=True)  # type: ignore[assignment]


class ProductChoiceSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(read_only=True, help_text=_("The deck extra holding the choice."))
    options = serializers.ListField(child=serializers.CharField(), read_only=True)
    default = serializers.CharField(read_only=True)


class ProductDetailOutputSerializer(ProductOutputSerializer):
    items = ProductItemOutputSerializer(many=True, read_only=True)
    data_notes = serializers.SerializerMethodField(
        help_text=_(
            "Where the catalog's list differs from the product as published, and who says so."
        )
    )
    choices = serializers.SerializerMethodField(
        help_text=_("Choices a deck of this product is built with (a hero's sidekick).")
    )

    @extend_schema_field(DataNoteSerializer(many=True))
    def get_data_notes(self, product: Product) -> list[dict[str, str]]:
        official = official_product(product.game.slug, product.code)
        return [n.as_dict() for n in official.notes] if official else []

    @extend_schema_field(ProductChoiceSerializer(many=True))
    def get_choices(self, product: Product) -> list[dict[str, Any]]:
        official = official_product(product.game.slug, product.code)
        return [
            {"key": c.key, "options": [o.value for o in c.options], "default": c.default.value}
            for c in (official.choices if official else ())
        ]
