"""The CSV dialects: their header row, which of our fields each column carries, and how
they write conditions, finishes and languages. ``docs/collection-format.md`` is the table
of all this for people."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from django.utils.functional import Promise
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


#: the fields a column can be mapped to by hand (the mapping step), in the order offered
MAPPABLE: tuple[str, ...] = (
    "quantity",
    "name",
    "card",
    "set",
    "set_name",
    "number",
    "variant",
    "condition",
    "finish",
    "language",
    "trade_quantity",
    "binder",
    "tags",
    "acquired_on",
    "price",
    "currency",
    "note",
)

#: how each field is named to a player choosing a column's meaning
MAPPABLE_LABELS = {
    "quantity": _("Quantity"),
    "name": _("Card name"),
    "card": _("Card code"),
    "set": _("Set code"),
    "set_name": _("Set name"),
    "number": _("Collector number"),
    "variant": _("Printing variant"),
    "condition": _("Condition"),
    "finish": _("Finish"),
    "language": _("Language"),
    "trade_quantity": _("Quantity for trade"),
    "binder": _("Binder"),
    "tags": _("Tags"),
    "acquired_on": _("Acquisition date"),
    "price": _("Price"),
    "currency": _("Currency"),
    "note": _("Note"),
}


@dataclass(frozen=True)
class Dialect:
    code: str
    #: a tool's name, or (for the generic and mapped readers) a translated description
    label: str | Promise
    #: our field -> the column's header (the columns we read and write)
    columns: dict[str, str]
    #: the header row exactly as the tool writes it (our columns and theirs, in their order);
    #: empty: our columns then ``extra_columns``
    layout: tuple[str, ...] = ()
    #: columns the format writes that carry nothing of ours (written empty)
    extra_columns: tuple[str, ...] = ()
    #: header cells of the tool's other exports (all-columns, older versions): recognised,
    #: not read
    also: tuple[str, ...] = ()
    #: header cells written with the value of one of our fields, not read (TCGplayer's
    #: "Simple Name" repeats the name)
    mirrors: dict[str, str] = field(default_factory=dict)
    #: header cells (as ``key``) that must all be present for the header to be this format's
    signature: tuple[str, ...] = ()
    #: their condition word -> ours (read), and ours -> theirs (write)
    conditions_in: dict[str, str] = field(default_factory=dict)
    conditions_out: dict[str, str] = field(default_factory=dict)
    #: ours -> the word they write for a normal and a foil copy
    finish_out: tuple[str, str] = ("", "foil")
    #: languages as codes ("ja") or as English names ("Japanese"); ``languages_out`` names
    #: the codes a tool spells its own way (Archidekt's "JP")
    language_codes: bool = False
    languages_out: dict[str, str] = field(default_factory=dict)
    sep_line: bool = False
    #: conditions written with a word that reads back as another condition
    lossy_conditions: tuple[str, ...] = ()
    #: what separates tags in the tags cell (reading)
    tag_separators: str = ";"

    @property
    def header(self) -> list[str]:
        return list(self.layout) if self.layout else [*self.columns.values(), *self.extra_columns]

    def carries(self, name: str) -> bool:
        return name in self.columns

    def language_out(self, code: str) -> str:
        if code in self.languages_out:
            return self.languages_out[code]
        if self.language_codes or code not in LANGUAGE_NAMES:
            return code
        return LANGUAGE_NAMES[code][0]

    def known_cells(self) -> set[str]:
        """Every header cell (as ``key``) this tool's exports may have."""
        cells = [*self.columns.values(), *self.layout, *self.extra_columns, *self.also]
        return {key(c) for c in (*cells, *self.mirrors)}


_OURS = {c: c for c in C.values}

#: the words of the tools that grade on TCGplayer's scale (Mint, Near Mint, Lightly Played,
#: Moderately Played, Heavily Played, Damaged, and Deckbox's "Good (Lightly Played)"), read
#: onto ours by name; "Heavily Played" and "Damaged" both become poor
_TCG_SCALE_IN: dict[str, str] = {
    "mint": C.MINT,
    "m": C.MINT,
    "nearmint": C.NEAR_MINT,
    "nm": C.NEAR_MINT,
    "goodlightlyplayed": C.LIGHTLY_PLAYED,
    "lightlyplayed": C.LIGHTLY_PLAYED,
    "lp": C.LIGHTLY_PLAYED,
    "played": C.PLAYED,
    "moderatelyplayed": C.PLAYED,
    "mp": C.PLAYED,
    "heavilyplayed": C.POOR,
    "hp": C.POOR,
    "damaged": C.POOR,
    "dmg": C.POOR,
    "d": C.POOR,
    "poor": C.POOR,
}

#: ManaBox's and Dragon Shield's words: Cardmarket's seven grades, spelled their way
_CARDMARKET_IN: dict[str, str] = {
    "mint": C.MINT,
    "nearmint": C.NEAR_MINT,
    "excellent": C.EXCELLENT,
    "good": C.GOOD,
    "lightplayed": C.LIGHTLY_PLAYED,
    "played": C.PLAYED,
    "poor": C.POOR,
}

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
        "tags": "Tags",
        "price": "My Price",
    },
    # Deckbox's default inventory export, as it writes it
    layout=(
        "Count",
        "Tradelist Count",
        "Name",
        "Edition",
        "Edition Code",
        "Card Number",
        "Condition",
        "Language",
        "Foil",
        "Signed",
        "Artist Proof",
        "Altered Art",
        "Misprint",
        "Promo",
        "Textless",
        "Printing Id",
        "Printing Note",
        "Tags",
        "My Price",
    ),
    # the further columns of its "all columns" export
    also=(
        "Decks Count Built",
        "Decks Count All",
        "Type",
        "Cost",
        "Rarity",
        "Price",
        "Image URL",
        "Last Updated",
        "TcgPlayer ID",
        "Scryfall ID",
    ),
    signature=("count", "name", "edition"),
    conditions_in=_TCG_SCALE_IN,
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
    tag_separators=";,",
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
    layout=(
        "Count",
        "Tradelist Count",
        "Name",
        "Edition",
        "Condition",
        "Language",
        "Foil",
        "Tags",
        "Last Modified",
        "Collector Number",
        "Alter",
        "Proxy",
        "Purchase Price",
    ),
    signature=("count", "name", "edition"),
    conditions_in=_TCG_SCALE_IN,
    conditions_out={
        C.MINT: "Mint",
        C.NEAR_MINT: "Near Mint",
        C.EXCELLENT: "Near Mint",
        C.GOOD: "Good (Lightly Played)",
        C.LIGHTLY_PLAYED: "Good (Lightly Played)",
        C.PLAYED: "Played",
        C.POOR: "Damaged",
    },
    lossy_conditions=(C.EXCELLENT, C.GOOD),
    tag_separators=";,",
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
    # the older export; the newer one is the same without the two binder columns
    layout=(
        "Binder Name",
        "Binder Type",
        "Name",
        "Set code",
        "Set name",
        "Collector number",
        "Foil",
        "Rarity",
        "Quantity",
        "ManaBox ID",
        "Scryfall ID",
        "Purchase price",
        "Misprint",
        "Altered",
        "Condition",
        "Language",
        "Purchase price currency",
    ),
    signature=("name", "setcode", "quantity", "manaboxid"),
    conditions_in=_CARDMARKET_IN,
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
    # its other price columns (the app's export)
    also=("AVG", "TREND"),
    signature=("foldername", "cardname", "printing"),
    conditions_in=_CARDMARKET_IN,
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

ARCHIDEKT = Dialect(
    code="archidekt",
    label="Archidekt",
    columns={
        "quantity": "Quantity",
        "name": "Name",
        "finish": "Finish",
        "condition": "Condition",
        "acquired_on": "Date Added",
        "language": "Language",
        "price": "Purchase Price",
        "tags": "Tags",
        "set_name": "Edition Name",
        "set": "Edition Code",
        "number": "Collector Number",
    },
    # its default export; the columns it offers besides are in ``also``
    layout=(
        "Quantity",
        "Name",
        "Finish",
        "Condition",
        "Date Added",
        "Language",
        "Purchase Price",
        "Tags",
        "Edition Name",
        "Edition Code",
        "Multiverse Id",
        "Scryfall ID",
        "Collector Number",
    ),
    also=(
        "MTGO ID",
        "Mana Value",
        "Colors",
        "Identities",
        "Mana cost",
        "Types",
        "Sub-types",
        "Super-types",
        "Rarity",
        "Price (Card Kingdom)",
        "Price (TCG Player)",
        "Price (Star City Games)",
        "Price (Card Hoarder)",
        "Price (Card Market)",
        "Scryfall Oracle ID",
    ),
    signature=("quantity", "name", "editioncode"),
    conditions_in=_TCG_SCALE_IN,
    conditions_out={
        C.MINT: "NM",
        C.NEAR_MINT: "NM",
        C.EXCELLENT: "NM",
        C.GOOD: "LP",
        C.LIGHTLY_PLAYED: "LP",
        C.PLAYED: "MP",
        C.POOR: "D",
    },
    finish_out=("Normal", "Foil"),
    language_codes=True,
    languages_out={"en": "EN", "ja": "JP", "ko": "KR", "zh": "CS", "fr": "FR", "de": "DE"},
    lossy_conditions=(C.MINT, C.EXCELLENT, C.GOOD),
    tag_separators=";,",
)

TCGPLAYER = Dialect(
    code="tcgplayer",
    label="TCGplayer",
    columns={
        "quantity": "Quantity",
        "name": "Name",
        "set_name": "Set",
        "number": "Card Number",
        "set": "Set Code",
        "finish": "Printing",
        "condition": "Condition",
        "language": "Language",
    },
    layout=(
        "Quantity",
        "Name",
        "Simple Name",
        "Set",
        "Card Number",
        "Set Code",
        "Printing",
        "Condition",
        "Language",
        "Rarity",
        "Product ID",
        "SKU",
    ),
    mirrors={"Simple Name": "name"},
    signature=("quantity", "name", "simplename"),
    conditions_in=_TCG_SCALE_IN,
    conditions_out={
        C.MINT: "Near Mint",
        C.NEAR_MINT: "Near Mint",
        C.EXCELLENT: "Near Mint",
        C.GOOD: "Lightly Played",
        C.LIGHTLY_PLAYED: "Lightly Played",
        C.PLAYED: "Moderately Played",
        C.POOR: "Damaged",
    },
    finish_out=("Normal", "Foil"),
    lossy_conditions=(C.MINT, C.EXCELLENT, C.GOOD),
)

#: a typed list, "3 Flame Fox (MT1) 001" per line: read only, never recognised by a header
TYPED_LIST = Dialect(
    code="list",
    label="List",
    columns={"quantity": "Count", "name": "Name", "set": "Set", "number": "Number"},
    conditions_out=_OURS,
)

#: a spreadsheet a player typed, read by clear column names (``GENERIC_NAMES``)
GENERIC = Dialect(
    code="generic",
    label=_("Spreadsheet"),
    columns={},
    conditions_out=_OURS,
    tag_separators=";,",
)

#: a header the player mapped to our fields by hand (the mapping step)
MAPPED = Dialect(
    code="mapped",
    label=_("Your column mapping"),
    columns={},
    conditions_out=_OURS,
    tag_separators=";,",
)

#: the tools' formats: recognised by their header, written by the exports
DIALECTS: tuple[Dialect, ...] = (
    DECKLAB,
    DECKBOX,
    MOXFIELD,
    MANABOX,
    DRAGON_SHIELD,
    ARCHIDEKT,
    TCGPLAYER,
)
BY_CODE = {d.code: d for d in (*DIALECTS, TYPED_LIST, GENERIC, MAPPED)}

#: the column names a typed spreadsheet may use for each field (compared as ``key``), in
#: English and Japanese
GENERIC_NAMES: dict[str, tuple[str, ...]] = {
    "quantity": (
        "quantity",
        "qty",
        "count",
        "copies",
        "amount",
        "number of copies",
        "枚数",
        "数量",
        "所持数",
        "所持枚数",
        "個数",
        "数",
    ),
    "name": (
        "name",
        "card",
        "card name",
        "name_en",
        "name_ja",
        "english name",
        "japanese name",
        "title",
        "カード名",
        "カード",
        "名前",
        "名称",
        "カード名称",
        "英語名",
        "日本語名",
    ),
    "card": ("card code", "card id", "カードコード"),
    "set": (
        "set",
        "set code",
        "edition",
        "edition code",
        "expansion",
        "set id",
        "セット",
        "セットコード",
        "弾",
        "収録弾",
        "エキスパンション",
    ),
    "set_name": ("set name", "edition name", "セット名", "弾名"),
    "number": (
        "number",
        "card number",
        "collector number",
        "collector no",
        "no",
        "#",
        "番号",
        "カード番号",
        "型番",
        "コレクター番号",
    ),
    "variant": ("variant", "バリアント"),
    "condition": ("condition", "grade", "状態", "コンディション"),
    "finish": ("finish", "foil", "printing", "加工", "仕様", "ホイル", "フォイル"),
    "language": ("language", "lang", "言語"),
    "trade_quantity": (
        "trade quantity",
        "tradelist count",
        "for trade",
        "trade",
        "トレード",
        "交換",
        "交換用",
    ),
    "binder": (
        "binder",
        "binder name",
        "folder",
        "folder name",
        "location",
        "バインダー",
        "保管場所",
    ),
    "tags": ("tags", "tag", "タグ"),
    "acquired_on": (
        "acquired on",
        "date",
        "date added",
        "date bought",
        "acquired",
        "購入日",
        "入手日",
    ),
    "price": ("price", "purchase price", "price bought", "my price", "価格", "購入価格", "値段"),
    "currency": ("currency", "通貨"),
    "note": ("note", "notes", "comment", "comments", "memo", "メモ", "備考"),
}
_GENERIC_BY_KEY = {key(name): f for f, names in GENERIC_NAMES.items() for name in names}

#: words any dialect may use for a condition: our codes and labels, Cardmarket's
#: abbreviations, TCGplayer's words, a few Japanese shops' words
CONDITION_ALIASES: dict[str, str] = {
    **_TCG_SCALE_IN,
    **_CARDMARKET_IN,
    **{key(c): c for c in C.values},
    **{key(str(label)): c for c, label in ((c.value, c.label) for c in C)},
    "mt": C.MINT,
    "ex": C.EXCELLENT,
    "gd": C.GOOD,
    "pl": C.PLAYED,
    "po": C.POOR,
    "未使用": C.MINT,
    "美品": C.NEAR_MINT,
    "良品": C.EXCELLENT,
    "傷あり": C.PLAYED,
    "キズあり": C.PLAYED,
}
NORMAL_WORDS = {"", "normal", "nonfoil", "regular", "no", "false", "0", "通常", "ノーマル"}
FOIL_WORDS = {"foil", "yes", "true", "1", "ホイル", "フォイル"}
#: the tools' codes and names for languages that are not ISO's (compared as ``key``)
LANGUAGE_ALIASES = {
    "jp": "ja",
    "jpn": "ja",
    "kr": "ko",
    "cs": "zh",
    "ct": "zh",
    "zhcn": "zh",
    "zhtw": "zh",
    "zhs": "zh",
    "zht": "zh",
    "simplifiedchinese": "zh",
    "traditionalchinese": "zh",
    "chinesesimplified": "zh",
    "chinesetraditional": "zh",
    "日本": "ja",
    "英": "en",
}


@dataclass(frozen=True)
class Detection:
    """What a header row is: one format, several equally (the player chooses), or none."""

    dialect: Dialect | None
    tied: tuple[Dialect, ...] = ()


def _score(dialect: Dialect, cells: set[str]) -> int:
    """Header cells the format knows, less those it does not: a whole-header match, so a
    Deckbox export (with its own ``Tags``) is Deckbox's, not Moxfield's."""
    known = dialect.known_cells()
    return len(cells & known) - len(cells - known)


def _reading(dialect: Dialect, header: list[str]) -> tuple[object, ...]:
    """How a format reads this header: the field of each cell (a set's code and name are
    looked up alike) and its words for conditions."""
    fields = {key(title): name for name, title in dialect.columns.items()}
    cells = tuple(fields.get(key(c), "").replace("set_name", "set") for c in header)
    return (cells, tuple(sorted(dialect.conditions_in.items())), dialect.tag_separators)


def generic_columns(header: list[str]) -> dict[str, int]:
    """Our field -> its column, read from clear column names (the first of each wins)."""
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        name = _GENERIC_BY_KEY.get(key(cell))
        if name is not None and name not in found:
            found[name] = index
    return found


def detect_header(header: list[str]) -> Detection:
    """The format whose header best matches the whole of this one; a tie is not guessed.
    A header no tool's signature matches is read generically when its names are clear."""
    cells = {key(c) for c in header if key(c)}
    scored = [(_score(d, cells), d) for d in DIALECTS if all(s in cells for s in d.signature)]
    if scored:
        best = max(score for score, _d in scored)
        top = tuple(d for score, d in scored if score == best)
        if len(top) > 1 and len({_reading(d, header) for d in top}) == 1:
            # formats that would read this header alike: no need to ask which it is
            top = (max(top, key=lambda d: len(cells & d.known_cells()) / len(d.known_cells())),)
        return Detection(top[0] if len(top) == 1 else None, top if len(top) > 1 else ())
    columns = generic_columns(header)
    if "quantity" in columns and ("name" in columns or "card" in columns):
        return Detection(GENERIC)
    return Detection(None)


def detect(header: list[str]) -> Dialect | None:
    return detect_header(header).dialect


def dialect_codes() -> list[str]:
    return [d.code for d in DIALECTS]
