"""The CSV dialects: their header row, which of our fields each column carries, and how
they write conditions, finishes and languages. ``docs/collection-format.md`` is the table
of all this for people."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from collection.vocab import LANGUAGE_NAMES, NORMAL, Condition

C = Condition

#: our fields, in DeckLab CSV's column order
FIELDS: tuple[str, ...] = (
    "game",
    "card",
    "name",
    "name_ja",
    "set",
    "set_name",
    "number",
    "variant",
    "quantity",
    "trade_quantity",
    "condition",
    "finish",
    "language",
    "binder",
    "tags",
    "acquired_on",
    "price",
    "currency",
    "note",
)

#: what an export may lose, by field, for the loss warnings
FIELD_LABELS = {
    "variant": _("printing variant"),
    "trade_quantity": _("quantity for trade"),
    "binder": _("binder"),
    "tags": _("tags"),
    "acquired_on": _("acquisition date"),
    "price": _("price"),
    "currency": _("currency"),
    "note": _("note"),
    "condition": _("condition"),
    "finish": _("finish"),
}


def key(text: str) -> str:
    """A word as compared: NFKC, case-folded, letters and digits only."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


@dataclass(frozen=True)
class Dialect:
    code: str
    label: str
    #: our field -> the column's header, in the order the format writes its columns
    columns: dict[str, str]
    #: columns the format writes that carry nothing of ours (written empty)
    extra_columns: tuple[str, ...] = ()
    #: header cells (as ``key``) that must all be present for the header to be this format's
    signature: tuple[str, ...] = ()
    #: their condition word -> ours (read), and ours -> theirs (write)
    conditions_in: dict[str, str] = field(default_factory=dict)
    conditions_out: dict[str, str] = field(default_factory=dict)
    #: ours -> the word they write for a normal and a foil copy
    finish_out: tuple[str, str] = ("", "foil")
    #: languages as codes ("ja") or as English names ("Japanese")
    language_codes: bool = False
    sep_line: bool = False
    #: conditions written with a word that reads back as another condition
    lossy_conditions: tuple[str, ...] = ()

    @property
    def header(self) -> list[str]:
        return [*self.columns.values(), *self.extra_columns]

    def carries(self, name: str) -> bool:
        return name in self.columns

    def language_out(self, code: str) -> str:
        if self.language_codes or code not in LANGUAGE_NAMES:
            return code
        return LANGUAGE_NAMES[code][0]


_OURS = {c: c for c in C.values}

DECKLAB = Dialect(
    code="decklab",
    label="DeckLab",
    columns={f: f if f != "name" else "name_en" for f in FIELDS if f != "set_name"},
    signature=("game", "card", "set", "quantity"),
    conditions_in={key(c): c for c in C.values},
    conditions_out=_OURS,
    finish_out=(NORMAL, "foil"),
    language_codes=True,
)

DECKBOX = Dialect(
    code="deckbox",
    label="Deckbox",
    columns={
        "quantity": "Count",
        "trade_quantity": "Tradelist Count",
        "name": "Name",
        "set_name": "Edition",
        "set": "Edition Code",
        "number": "Card Number",
        "condition": "Condition",
        "language": "Language",
        "finish": "Foil",
        "price": "My Price",
    },
    extra_columns=("Signed", "Artist Proof", "Altered Art", "Misprint", "Promo", "Textless"),
    signature=("count", "tradelistcount", "name", "edition"),
    conditions_in={
        "mint": C.MINT,
        "nearmint": C.NEAR_MINT,
        "goodlightlyplayed": C.LIGHTLY_PLAYED,
        "played": C.PLAYED,
        "heavilyplayed": C.POOR,
        "poor": C.POOR,
    },
    conditions_out={
        C.MINT: "Mint",
        C.NEAR_MINT: "Near Mint",
        C.EXCELLENT: "Near Mint",
        C.GOOD: "Good (Lightly Played)",
        C.LIGHTLY_PLAYED: "Good (Lightly Played)",
        C.PLAYED: "Played",
        C.POOR: "Poor",
    },
    lossy_conditions=(C.EXCELLENT, C.GOOD),
)

MOXFIELD = Dialect(
    code="moxfield",
    label="Moxfield",
    columns={
        "quantity": "Count",
        "trade_quantity": "Tradelist Count",
        "name": "Name",
        "set": "Edition",
        "condition": "Condition",
        "language": "Language",
        "finish": "Foil",
        "tags": "Tags",
        "number": "Collector Number",
        "price": "Purchase Price",
    },
    extra_columns=("Last Modified", "Alter", "Proxy"),
    signature=("count", "tradelistcount", "name", "edition", "tags"),
    conditions_in={
        "mint": C.MINT,
        "m": C.MINT,
        "nearmint": C.NEAR_MINT,
        "nm": C.NEAR_MINT,
        "lightlyplayed": C.LIGHTLY_PLAYED,
        "lp": C.LIGHTLY_PLAYED,
        "moderatelyplayed": C.PLAYED,
        "mp": C.PLAYED,
        "heavilyplayed": C.POOR,
        "hp": C.POOR,
        "damaged": C.POOR,
        "d": C.POOR,
    },
    conditions_out={
        C.MINT: "Mint",
        C.NEAR_MINT: "Near Mint",
        C.EXCELLENT: "Near Mint",
        C.GOOD: "Lightly Played",
        C.LIGHTLY_PLAYED: "Lightly Played",
        C.PLAYED: "Moderately Played",
        C.POOR: "Damaged",
    },
    lossy_conditions=(C.EXCELLENT, C.GOOD),
)

MANABOX = Dialect(
    code="manabox",
    label="ManaBox",
    columns={
        "binder": "Binder Name",
        "name": "Name",
        "set": "Set code",
        "set_name": "Set name",
        "number": "Collector number",
        "finish": "Foil",
        "quantity": "Quantity",
        "price": "Purchase price",
        "condition": "Condition",
        "language": "Language",
        "currency": "Purchase price currency",
    },
    extra_columns=("Binder Type", "Rarity", "ManaBox ID", "Scryfall ID", "Misprint", "Altered"),
    signature=("bindername", "name", "setcode", "quantity"),
    conditions_in={
        "mint": C.MINT,
        "nearmint": C.NEAR_MINT,
        "excellent": C.EXCELLENT,
        "good": C.GOOD,
        "lightplayed": C.LIGHTLY_PLAYED,
        "played": C.PLAYED,
        "poor": C.POOR,
    },
    conditions_out={
        C.MINT: "mint",
        C.NEAR_MINT: "near_mint",
        C.EXCELLENT: "excellent",
        C.GOOD: "good",
        C.LIGHTLY_PLAYED: "light_played",
        C.PLAYED: "played",
        C.POOR: "poor",
    },
    finish_out=("normal", "foil"),
    language_codes=True,
)

DRAGON_SHIELD = Dialect(
    code="dragonshield",
    label="Dragon Shield",
    columns={
        "binder": "Folder Name",
        "quantity": "Quantity",
        "trade_quantity": "Trade Quantity",
        "name": "Card Name",
        "set": "Set Code",
        "set_name": "Set Name",
        "number": "Card Number",
        "condition": "Condition",
        "finish": "Printing",
        "language": "Language",
        "price": "Price Bought",
        "acquired_on": "Date Bought",
    },
    extra_columns=("LOW", "MID", "MARKET"),
    signature=("foldername", "cardname", "printing"),
    conditions_in={
        "mint": C.MINT,
        "nearmint": C.NEAR_MINT,
        "excellent": C.EXCELLENT,
        "good": C.GOOD,
        "lightplayed": C.LIGHTLY_PLAYED,
        "played": C.PLAYED,
        "poor": C.POOR,
    },
    conditions_out={
        C.MINT: "Mint",
        C.NEAR_MINT: "NearMint",
        C.EXCELLENT: "Excellent",
        C.GOOD: "Good",
        C.LIGHTLY_PLAYED: "LightPlayed",
        C.PLAYED: "Played",
        C.POOR: "Poor",
    },
    finish_out=("Normal", "Foil"),
    sep_line=True,
)

#: a typed list, "3 Flame Fox (MT1) 001" per line: read only, never recognised by a header
TYPED_LIST = Dialect(
    code="list",
    label="List",
    columns={"quantity": "Count", "name": "Name", "set": "Set", "number": "Number"},
    conditions_out=_OURS,
)

#: in the order headers are tried (Moxfield's header contains Deckbox's signature)
DIALECTS: tuple[Dialect, ...] = (DECKLAB, DRAGON_SHIELD, MANABOX, MOXFIELD, DECKBOX)
BY_CODE = {d.code: d for d in (*DIALECTS, TYPED_LIST)}

#: words any dialect may use for a condition: our codes and labels, Cardmarket's abbreviations
CONDITION_ALIASES: dict[str, str] = {
    **{key(c): c for c in C.values},
    **{key(str(label)): c for c, label in ((c.value, c.label) for c in C)},
    "mt": C.MINT,
    "nm": C.NEAR_MINT,
    "ex": C.EXCELLENT,
    "gd": C.GOOD,
    "lp": C.LIGHTLY_PLAYED,
    "pl": C.PLAYED,
    "po": C.POOR,
    "美品": C.NEAR_MINT,
}
NORMAL_WORDS = {"", "normal", "nonfoil", "no", "false", "0", "通常"}
FOIL_WORDS = {"foil", "yes", "true", "1", "ホイル", "フォイル"}


def detect(header: list[str]) -> Dialect | None:
    cells = {key(c) for c in header}
    for dialect in DIALECTS:
        if all(s in cells for s in dialect.signature):
            return dialect
    return None


def dialect_codes() -> list[str]:
    return [d.code for d in DIALECTS]
