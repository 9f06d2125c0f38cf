"""Check a whole CatalogBundle against the game's schemas and the database.

Every problem is collected (never just the first), each with where it is and why, with a
"did you mean" where a code or name is close to a known one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog.attributes import AttributeErrors
from catalog.importers.attribute_memo import AttributeMemo
from catalog.importers.bundle import CardRow, CatalogBundle, ImportProblem
from catalog.kinds import kind_codes
from catalog.models import MAX_PRODUCT_QUANTITY, Card, CardSet, Printing
from catalog.spec import GameSpec, all_games, get_game, is_game

CODE_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
ZONE_RE = re.compile(r"^[-a-z0-9_]+$")

PrintingKey = tuple[str, str, str]  # (set code, collector number, variant)


def did_you_mean(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=3, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(word.lower(), [k.lower() for k in known], n=3, cutoff=0.6)
    if not close:
        return ""
    # Translators: a hint after a problem; names are the close codes or names, quoted.
    return " " + _("Did you mean %(names)s?") % {"names": ", ".join(repr(c) for c in close)}


def unknown_game(game: str, known: list[str]) -> str:
    """The problem of a game slug that is not registered, with its "did you mean"."""
    return _("unknown game '%(game)s'; games are %(games)s.") % {
        "game": game,
        "games": ", ".join(known),
    } + did_you_mean(game, known)


class _Checker:
    def __init__(self, bundle: CatalogBundle, spec: GameSpec) -> None:
        self.bundle = bundle
        self.spec = spec
        self.problems: list[ImportProblem] = []
        # a game has few sets: all their codes answer "unknown set" and its did-you-mean
        db_sets = CardSet.objects.filter(game__slug=spec.slug).values_list("code", flat=True)
        self.set_codes = set(db_sets) | {row.code for row in bundle.sets}
        self.bundle_cards: dict[str, CardRow] = {}
        #: the printings of the cards the products name and the file does not hold, read in
        #: one query (``load_product_cards``): the catalog's other cards are never read
        self.db_printings: dict[str, list[PrintingKey]] = {}
        self.attributes = AttributeMemo()
        # kinds are the game's own (catalog.kinds): the database no longer refuses another
        self.set_kinds = kind_codes(spec.set_kinds)
        self.product_kinds = kind_codes(spec.product_kinds)

    def add(self, where: str, message: str) -> None:
        self.problems.append(ImportProblem(where, message))

    def code(self, where: str, code: str, label: str, max_length: int) -> None:
        if code and (not CODE_RE.match(code) or len(code) > max_length):
            self.add(
                where,
                # Translators: label is "set code", "card code" or "product code".
                _("%(label)s '%(code)s' must be at most %(max)d letters, digits, '-' or '_'")
                % {"label": label, "code": code, "max": max_length},
            )

    def names(self, where: str, name_en: str, name_ja: str) -> None:
        if not (name_en or name_ja):
            self.add(where, _("needs a name in English (name_en) or Japanese (name_ja)"))
        for name in (name_en, name_ja):
            if len(name) > 200:
                self.add(where, _("a name is longer than 200 characters"))

    def check_sets(self) -> None:
        seen: set[str] = set()
        for row in self.bundle.sets:
            self.code(row.where, row.code, _("set code"), 80)
            if row.code in seen:
                self.add(row.where, _("duplicate set code '%(code)s'") % {"code": row.code})
            seen.add(row.code)
            self.names(row.where, row.name_en, row.name_ja)
            if row.kind not in self.set_kinds:
                self.add(
                    row.where,
                    _("set kind '%(kind)s' is not one of %(kinds)s.")
                    % {"kind": row.kind, "kinds": ", ".join(self.set_kinds)}
                    + did_you_mean(row.kind, self.set_kinds),
                )
            if row.official_size is not None and row.official_size < 0:
                self.add(row.where, _("%(field)s cannot be negative") % {"field": "official_size"})

    def check_cards(self) -> None:
        label = _("card code")  # translated once, not once a row
        for row in self.bundle.cards:
            self.code(row.where, row.code, label, 120)
            if row.code in self.bundle_cards:
                self.add(row.where, _("duplicate card code '%(code)s'") % {"code": row.code})
            self.bundle_cards[row.code] = row
            self.names(row.where, row.name_en, row.name_ja)
            if row.card_type not in self.spec.card_type_codes:
                self.add(
                    row.where,
                    _("card type '%(type)s' is not a type of %(game)s (%(types)s).")
                    % {
                        "type": row.card_type,
                        "game": self.spec.slug,
                        "types": ", ".join(self.spec.card_type_codes),
                    }
                    + did_you_mean(row.card_type, self.spec.card_type_codes),
                )
            else:
                try:
                    row.attributes = self.attributes.validate(
                        self.spec.schema_for(row.card_type), row.attributes
                    )
                except AttributeErrors as exc:
                    for key, messages in exc.errors.items():
                        self.add(
                            row.where,
                            _("attribute '%(key)s': %(messages)s")
                            % {"key": key, "messages": " ".join(messages)},
                        )
            if row.copy_limit is not None and not 1 <= row.copy_limit <= 99:
                self.add(row.where, _("copy_limit must be between 1 and 99"))
            self.check_printings(row)

    def check_printings(self, card: CardRow) -> None:
        seen: set[PrintingKey] = set()
        for printing in card.printings:
            key = (printing.set_code, printing.collector_number, printing.variant)
            if key in seen:
                self.add(
                    printing.where,
                    # Translators: key is (set, number, variant), e.g. ('t1', '1', '').
                    _("duplicate printing %(key)s of card '%(card)s'")
                    % {"key": repr(key), "card": card.code},
                )
            seen.add(key)
            if printing.set_code and printing.set_code not in self.set_codes:
                self.add(
                    printing.where,
                    _("unknown set '%(code)s'.") % {"code": printing.set_code}
                    + did_you_mean(printing.set_code, self.set_codes),
                )
            if len(printing.collector_number) > 40:
                self.add(printing.where, _("collector number is longer than 40 characters"))
            if printing.variant and printing.variant not in dict(self.spec.variants):
                known = [code for code, _label in self.spec.variants]
                params = {"variant": printing.variant, "game": self.spec.slug}
                if known:
                    message = _("variant '%(variant)s' is not a variant of %(game)s (%(known)s).")
                    params["known"] = ", ".join(known)
                else:
                    message = _("variant '%(variant)s' is not a variant of %(game)s.")
                self.add(printing.where, message % params + did_you_mean(printing.variant, known))
            try:
                printing.attributes = self.attributes.validate(
                    self.spec.printing_schema_for(card.card_type), printing.attributes
                )
            except AttributeErrors as exc:
                for attr, messages in exc.errors.items():
                    self.add(
                        printing.where,
                        _("printing attribute '%(key)s': %(messages)s")
                        % {"key": attr, "messages": " ".join(messages)},
                    )

    def printings_of(self, card_code: str) -> list[PrintingKey]:
        row = self.bundle_cards.get(card_code)
        if row is not None:
            return [(p.set_code, p.collector_number, p.variant) for p in row.printings]
        return self.db_printings.get(card_code, [])

    def load_product_cards(self) -> set[str]:
        """The codes the products' items name that are cards (of the file or the catalog);
        the catalog's printings of those not in the file, in one query."""
        named = {item.card_code for p in self.bundle.products for item in p.items}
        outside = sorted(named - set(self.bundle_cards))
        if outside:
            rows = Printing.objects.filter(
                card__game__slug=self.spec.slug, card__code__in=outside
            ).values_list("card__code", "card_set__code", "collector_number", "variant")
            for card_code, *key in rows:
                self.db_printings.setdefault(card_code, []).append((key[0], key[1], key[2]))
            # a card without printings is still a card
            known = set(
                Card.objects.filter(game__slug=self.spec.slug, code__in=outside).values_list(
                    "code", flat=True
                )
            )
        else:
            known = set()
        return known | (named & set(self.bundle_cards))

    def all_card_names(self) -> dict[str, str]:
        """Every card's code and name, for a did-you-mean: read only when a product names an
        unknown card."""
        db_cards = Card.objects.filter(game__slug=self.spec.slug).values_list(
            "code", "name_en", "name_ja"
        )
        return {
            **{code: en or ja for code, en, ja in db_cards},
            **{c: r.name_en or r.name_ja for c, r in self.bundle_cards.items()},
        }

    def check_products(self) -> None:
        seen: set[str] = set()
        if not self.bundle.products:
            return
        known_cards = self.load_product_cards()
        names: dict[str, str] | None = None
        for product in self.bundle.products:
            self.code(product.where, product.code, _("product code"), 80)
            if product.code in seen:
                self.add(
                    product.where, _("duplicate product code '%(code)s'") % {"code": product.code}
                )
            seen.add(product.code)
            self.names(product.where, product.name_en, product.name_ja)
            if product.kind not in self.product_kinds:
                self.add(
                    product.where,
                    _("product kind '%(kind)s' is not one of %(kinds)s.")
                    % {"kind": product.kind, "kinds": ", ".join(self.product_kinds)}
                    + did_you_mean(product.kind, self.product_kinds),
                )
            if product.set_code and product.set_code not in self.set_codes:
                self.add(
                    product.where,
                    _("unknown set '%(code)s'.") % {"code": product.set_code}
                    + did_you_mean(product.set_code, self.set_codes),
                )
            for bound, value in (
                ("card_count", product.card_count),
                ("price_yen", product.price_yen),
            ):
                if value is not None and value < 0:
                    self.add(product.where, _("%(field)s cannot be negative") % {"field": bound})
            # a printing is named by its card and its key: cards may share a set and number
            lines: set[tuple[str, PrintingKey, str]] = set()
            for item in product.items:
                if not 1 <= item.quantity <= MAX_PRODUCT_QUANTITY:
                    self.add(
                        item.where,
                        _("quantity must be between 1 and %(max)d") % {"max": MAX_PRODUCT_QUANTITY},
                    )
                if not ZONE_RE.match(item.zone) or len(item.zone) > 30:
                    self.add(
                        item.where,
                        _("zone '%(zone)s' must be a short lowercase slug") % {"zone": item.zone},
                    )
                if item.card_code not in known_cards:
                    if names is None:
                        names = self.all_card_names()
                    by_name = {name: code for code, name in names.items() if name}
                    hint = did_you_mean(item.card_code, names) or did_you_mean(
                        item.card_code, by_name
                    )
                    self.add(
                        item.where,
                        _("unknown card '%(card)s'.") % {"card": item.card_code} + hint,
                    )
                    continue
                matches = [
                    key
                    for key in self.printings_of(item.card_code)
                    if (item.set_code is None or key[0] == item.set_code)
                    and (item.collector_number is None or key[1] == item.collector_number)
                    and (item.variant is None or key[2] == item.variant)
                ]
                if not matches:
                    self.add(
                        item.where,
                        _("no printing of '%(card)s' matches this line") % {"card": item.card_code},
                    )
                elif len(matches) > 1:
                    self.add(
                        item.where,
                        ngettext(
                            "'%(card)s' has %(count)d printing; name its set, number or variant",
                            "'%(card)s' has %(count)d printings; name its set, number or variant",
                            len(matches),
                        )
                        % {"card": item.card_code, "count": len(matches)},
                    )
                else:
                    line = (item.card_code, matches[0], item.zone)
                    if line in lines:
                        self.add(item.where, _("the same printing is listed twice in this zone"))
                    lines.add(line)
                    item.set_code, item.collector_number, item.variant = matches[0]


def validate_bundle(bundle: CatalogBundle) -> list[ImportProblem]:
    """Every problem of the bundle: the parser's, then the game's rules and references."""
    problems = list(bundle.problems)
    if not bundle.game:
        return problems
    if not is_game(bundle.game):
        slugs = [g.slug for g in all_games()]
        problems.append(
            ImportProblem(
                bundle.origin,
                unknown_game(bundle.game, slugs),
            )
        )
        return problems
    checker = _Checker(bundle, get_game(bundle.game))
    checker.check_sets()
    checker.check_cards()
    checker.check_products()
    return problems + checker.problems
