"""From a search's syntax tree to a database condition on one game's cards (or printings).

The condition filters the card table itself (or the printing table, one row per printing), so
PostgreSQL can answer it from the card table's indexes: names from the trigram GIN index on
``search_key``, attributes from the GIN index on ``attributes`` (equality, membership and, for
fields with a small declared range, comparisons are all containment tests ``@>``), printing
fields from an EXISTS over the printings of the card. SQLite has neither index nor ``@>``: the
same searches are spelled with JSON key lookups there, and read every card.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Length, LPad

from catalog.models import Card, Printing
from catalog.query import errors
from catalog.query.errors import QueryError
from catalog.query.fields import (
    COMMON_FIELDS,
    DIR_VALUES,
    IN_VALUES,
    IS_VALUES,
    ORDER_BASE,
    UNIQUE_VALUES,
    SearchField,
    fields_by_name,
)
from catalog.query.syntax import All, Any_, Compare, Node, Not, Word, parse
from catalog.query.values import ValueTable, bool_table, field_table, type_table
from catalog.search import fold
from catalog.spec import all_games, get_game

#: a comparison over a declared range of at most this many numbers becomes containment tests
MAX_ENUMERATED = 40
_NUMBER_LIMIT = 10**9
_NUMBER_OPS: dict[str, Callable[[int, int], bool]] = {
    ":": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_LOOKUPS = {"<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
_EQUALITY = (":", "=", "!=")
_YES = ("yes", "true", "1", "y")
_NO = ("no", "false", "0", "n")
_CONTROL = ("order", "dir", "unique")


@dataclass(frozen=True)
class SearchContext:
    """What the searcher brings: the conditions behind ``is:owned``/``is:missing`` and
    ``in:deck`` (None: not available here). Each takes ``per_printing`` and returns a condition
    on the searched row (a card, or a printing when one row per printing is asked for)."""

    owned: Callable[[bool], Q] | None = None
    #: owned with at least one copy that no built deck reserves (``is:free``)
    free: Callable[[bool], Q] | None = None
    in_deck: Callable[[bool], Q] | None = None
    signed_in: bool = False


@dataclass(frozen=True)
class CompiledQuery:
    text: str
    condition: Q
    #: the condition is on printings (one row per printing)
    per_printing: bool = False
    #: the query asked for one row per printing (``unique:prints``)
    wants_printings: bool = False
    #: ("name" | "type" | "number" | a number field, descending) when the query sorts
    order: tuple[str, bool] | None = None
    #: the name words searched (for near-miss suggestions)
    words: tuple[str, ...] = ()
    #: conditions a printing must meet, from the query's top level (a set page shows them)
    printing_conditions: tuple[Q, ...] = field(default_factory=tuple)
    #: the query names ``is:demo`` (in any form): it asks about demo cards, so the lists do
    #: not leave them out by default (catalog.demo)
    asks_demo: bool = False

    @property
    def is_empty(self) -> bool:
        return not self.condition and not self.words


def _uses_containment() -> bool:
    return connection.vendor == "postgresql"


class _Compiler:
    def __init__(self, slug: str | None, context: SearchContext, per_printing: bool) -> None:
        self.slug = slug
        self.context = context
        self.per_printing = per_printing
        self.fields = fields_by_name(slug) if slug else {}
        # across games, the card types of every game
        specs = [get_game(slug)] if slug else all_games()
        self.types = type_table(specs)
        self.words: list[str] = []
        self.pg = _uses_containment()
        self.asks_demo = False

    # --- paths ----------------------------------------------------------------------------
    def card_path(self, path: str) -> str:
        return f"card__{path}" if self.per_printing else path

    def known_fields(self) -> list[str]:
        return [*COMMON_FIELDS, *self.fields]

    # --- the tree -------------------------------------------------------------------------
    def node(self, node: Node) -> Q:
        if isinstance(node, Word):
            return self.name(node.text)
        if isinstance(node, Not):
            return ~self.node(node.node)
        if isinstance(node, Any_):
            if self.is_printing_only(node):
                # one EXISTS over the printings for the whole group: an EXISTS per branch is
                # a correlated subplan per card, which no index answers
                return self.on_a_printing([self.printing_tree(node)])
            found = Q()
            for part in node.nodes:
                found |= self.node(part)
            return found
        if isinstance(node, All):
            return self.all_of(node.nodes)
        return self.compare(node)

    def all_of(self, nodes: Iterable[Node]) -> Q:
        # Printing conditions side by side must hold for ONE printing: "set:X boost:3" is
        # boost 3 in set X, not boost 3 somewhere and a printing in X somewhere else.
        found = Q()
        on_printing: list[Q] = []
        for part in nodes:
            if self.is_printing_only(part):
                on_printing.append(self.printing_tree(part))
            else:
                found &= self.node(part)
        if on_printing:
            found &= self.on_a_printing(on_printing)
        return found

    def is_printing_only(self, node: Node) -> bool:
        """A printing field, or an ``or``/``and`` group of nothing else (a negation stays
        outside: "-set:X" is a card never printed in X, not a printing elsewhere)."""
        if isinstance(node, Compare):
            return self.is_printing_field(node.field)
        if isinstance(node, (Any_, All)):
            return all(self.is_printing_only(part) for part in node.nodes)
        return False

    def printing_tree(self, node: Node) -> Q:
        """A printing-only group (``is_printing_only``) as one condition on a printing."""
        if isinstance(node, Compare):
            return self.printing_condition(node)
        assert isinstance(node, (Any_, All))
        found = Q()
        for part in node.nodes:
            if isinstance(node, Any_):
                found |= self.printing_tree(part)
            else:
                found &= self.printing_tree(part)
        return found

    def is_printing_field(self, name: str) -> bool:
        if name == "set":
            return True
        found = self.fields.get(name)
        return found is not None and found.on == "printing"

    def on_a_printing(self, conditions: list[Q]) -> Q:
        if self.per_printing:
            found = Q()
            for condition in conditions:
                found &= condition
            return found
        printings = Printing.objects.filter(card=OuterRef("pk")).filter(*conditions)
        return Q(Exists(printings))

    # --- words and fields -----------------------------------------------------------------
    def name(self, text: str) -> Q:
        found = Q()
        for word in fold(text).split() if text else ():
            self.words.append(word)
            found &= Q(**{self.card_path("search_key__contains"): word})
        if text and " " in text.strip():
            # a quoted phrase: its words in this order, as one run of the name
            phrase = " ".join(fold(text).split())
            found &= Q(**{self.card_path("search_key__contains"): phrase})
        return found

    def compare(self, node: Compare) -> Q:
        if self.is_printing_field(node.field):
            return self.on_a_printing([self.printing_condition(node)])
        return self.card_condition(node)

    def printing_condition(self, node: Compare) -> Q:
        """A condition on a Printing row (the set, or a printing field)."""
        if node.field == "set":
            condition = Q(card_set__code__iexact=self.single_value(node))
            return ~condition if node.op == "!=" else condition
        return self.attribute(node, self.fields[node.field], prefix="")

    def card_condition(self, node: Compare) -> Q:
        name = node.field
        if name in _CONTROL:
            # order:, dir: and unique: were taken out at the top level; elsewhere they mean nothing
            raise QueryError(errors.UNEXPECTED, node.pos, token=f"{name}{node.op}{node.value}")
        if name == "name":
            condition = self.name(node.value)
        elif name == "type":
            codes = self.values(node, self.types)
            condition = Q(**{self.card_path("card_type__in"): codes})
        elif name == "is":
            condition = self.flag(node)
        elif name == "in":
            self.choice(node, IN_VALUES)
            if self.context.in_deck is None:
                raise QueryError(errors.NOT_HERE, node.pos, token=f"in:{node.value}")
            condition = self.context.in_deck(self.per_printing)
        elif name in self.fields:
            prefix = "card__" if self.per_printing else ""
            condition = self.attribute(node, self.fields[name], prefix=prefix)
        else:
            raise QueryError(errors.UNKNOWN_FIELD, node.pos, token=name, known=self.known_fields())
        return ~condition if node.op == "!=" and name in ("name", "type", "in") else condition

    def single_value(self, node: Compare) -> str:
        if node.op not in _EQUALITY:
            raise QueryError(errors.BAD_OPERATOR, node.pos, field=node.field, token=node.op)
        return node.value

    def choice(self, node: Compare, codes: Iterable[str]) -> str:
        value = self.single_value(node).casefold()
        codes = tuple(codes)
        if value not in codes:
            raise QueryError(
                errors.UNKNOWN_VALUE,
                node.value_pos,
                token=node.value,
                field=node.field,
                known=codes,
            )
        return value

    def values(self, node: Compare, table: ValueTable) -> tuple[str, ...]:
        """The codes a field's value names: typed as a code, or as its label in either
        language; an error with what was probably meant otherwise."""
        value = self.single_value(node)
        codes = table.resolve(value)
        if not codes:
            raise QueryError(
                errors.UNKNOWN_VALUE,
                node.value_pos,
                token=node.value,
                field=node.field,
                suggestions=table.suggestions(value),
            )
        return codes

    def flag(self, node: Compare) -> Q:
        value = self.choice(node, IS_VALUES)
        if value == "demo":
            self.asks_demo = True
            condition = (
                Q(card__is_demo=True) | Q(card_set__is_demo=True)
                if self.per_printing
                else Q(is_demo=True)
            )
        else:
            if self.context.owned is None:
                message = errors.NEEDS_SIGN_IN if not self.context.signed_in else errors.NOT_HERE
                raise QueryError(message, node.pos, token=f"is:{value}")
            free = self.context.free
            if value == "free" and free is not None:
                condition = free(self.per_printing)
            else:
                condition = self.context.owned(self.per_printing)
            if value == "missing":
                condition = ~condition
        return ~condition if node.op == "!=" else condition

    # --- attributes -----------------------------------------------------------------------
    def attribute(self, node: Compare, spec: SearchField, *, prefix: str) -> Q:
        path = f"{prefix}attributes"
        if spec.kind == "number":
            return self.number(node, spec, path)
        found = self.attribute_equal(node, spec, path)
        return ~found if node.op == "!=" else found

    def attribute_equal(self, node: Compare, spec: SearchField, path: str) -> Q:
        value = self.single_value(node)
        found = Q()
        if spec.kind == "bool":
            folded = value.casefold()
            if folded in _YES:
                yes = True
            elif folded in _NO:
                yes = False
            else:
                yes = self.values(node, bool_table()) == ("yes",)
            for key in spec.attribute_keys:
                found |= self.is_true(path, key)
            return found if yes else ~found
        if spec.kind == "text":
            for key in spec.attribute_keys:
                found |= Q(**{f"{path}__has_key": key, f"{path}__{key}__icontains": value})
            return found
        if spec.paired:
            for paired in self.values(node, field_table(spec)):
                key, code = spec.paired[paired]
                found |= self.member(path, key, code)
            return found
        codes = self.values(node, field_table(spec)) if spec.choices else (value,)
        for code in codes:
            for key in spec.attribute_keys:
                found |= (
                    self.member(path, key, code)
                    if spec.kind == "list"
                    else self.equal(path, key, code)
                )
        return found

    def is_true(self, path: str, key: str) -> Q:
        if self.pg:
            return Q(**{f"{path}__contains": {key: True}})
        # with has_key, "not true" also holds where the key is missing (not NULL)
        return Q(**{f"{path}__has_key": key, f"{path}__{key}": True})

    def equal(self, path: str, key: str, value: Any) -> Q:
        if self.pg:
            return Q(**{f"{path}__contains": {key: value}})
        return Q(**{f"{path}__has_key": key, f"{path}__{key}": value})

    def member(self, path: str, key: str, code: str) -> Q:
        if self.pg:
            return Q(**{f"{path}__contains": {key: [code]}})
        # The JSON text of the list holds the code as a JSON string: SQLite stores it escaped
        # (json.dumps' default), PostgreSQL's jsonb prints it as it is.
        needle = json.dumps(code, ensure_ascii=connection.vendor == "sqlite")
        return Q(**{f"{path}__has_key": key, f"{path}__{key}__icontains": needle})

    def number(self, node: Compare, spec: SearchField, path: str) -> Q:
        try:
            wanted = int(node.value)
        except ValueError:
            raise QueryError(
                errors.NOT_A_NUMBER, node.value_pos, field=node.field, token=node.value
            ) from None
        # beyond any attribute's range, and inside what every database's integers hold
        wanted = max(-_NUMBER_LIMIT, min(_NUMBER_LIMIT, wanted))
        test = _NUMBER_OPS[node.op]
        found = Q()
        if (
            self.pg
            and spec.low is not None
            and spec.high is not None
            and spec.high - spec.low < MAX_ENUMERATED
        ):
            # Every number of the declared range that passes, as containment tests: the GIN
            # index answers each one, where a jsonb comparison would read every card.
            passing = [n for n in range(spec.low, spec.high + 1) if test(n, wanted)]
            if not passing:
                return Q(pk__in=[])
            for key in spec.attribute_keys:
                for n in passing:
                    found |= Q(**{f"{path}__contains": {key: n}})
            return found
        for key in spec.attribute_keys:
            if node.op in _EQUALITY:
                condition = Q(**{f"{path}__{key}": wanted})
                condition = ~condition if node.op == "!=" else condition
            else:
                condition = Q(**{f"{path}__{key}__{_LOOKUPS[node.op]}": wanted})
            # a card without the key does not pass, and "not (it passes)" then holds for it
            found |= Q(**{f"{path}__has_key": key}) & condition
        return found


def _split_controls(node: Node | None) -> tuple[Node | None, dict[str, Compare]]:
    """Take order:, dir: and unique: out of the query's top level."""
    if node is None:
        return None, {}
    parts = node.nodes if isinstance(node, All) else (node,)
    controls: dict[str, Compare] = {}
    kept: list[Node] = []
    for part in parts:
        if isinstance(part, Compare) and part.field in _CONTROL:
            controls[part.field] = part
        else:
            kept.append(part)
    if not kept:
        return None, controls
    return (kept[0] if len(kept) == 1 else All(tuple(kept))), controls


def _control_value(node: Compare, codes: Iterable[str]) -> str:
    codes = tuple(codes)
    value = node.value.casefold()
    if node.op not in (":", "=") or value not in codes:
        raise QueryError(
            errors.UNKNOWN_VALUE, node.value_pos, token=node.value, field=node.field, known=codes
        )
    return value


def compile_query(
    text: str,
    *,
    slug: str | None,
    context: SearchContext | None = None,
    per_printing: bool | None = None,
) -> CompiledQuery:
    """The condition behind ``text`` on one game's cards (``slug``; None: the fields every
    game shares, for a search across games). ``QueryError`` names the first problem.

    ``per_printing`` forces the rows (True: printings, False: cards) where a caller shows only
    one kind; by default the query's ``unique:`` decides, and ``CompiledQuery.per_printing``
    says what it asked for."""
    tree = parse(text)
    fields = fields_by_name(slug) if slug else {}
    tree, controls = _split_controls(tree)
    wants_printings = False
    order: tuple[str, bool] | None = None
    if "unique" in controls:
        wants_printings = _control_value(controls["unique"], UNIQUE_VALUES) == "prints"
    sortable = (*ORDER_BASE, *(name for name, f in fields.items() if f.kind == "number"))
    if "order" in controls:
        order = (_control_value(controls["order"], sortable), False)
    if "dir" in controls:
        descending = _control_value(controls["dir"], DIR_VALUES) == "desc"
        order = (order[0] if order else "name", descending)
    rows_are_printings = per_printing if per_printing is not None else wants_printings
    compiler = _Compiler(slug, context or SearchContext(), rows_are_printings)
    condition = compiler.node(tree) if tree is not None else Q()
    top = tree.nodes if isinstance(tree, All) else (tree,) if tree is not None else ()
    printing_conditions = tuple(
        compiler.printing_tree(part) for part in top if compiler.is_printing_only(part)
    )
    return CompiledQuery(
        text=text,
        condition=condition,
        per_printing=rows_are_printings,
        wants_printings=wants_printings,
        order=order,
        words=tuple(compiler.words),
        printing_conditions=printing_conditions,
        asks_demo=compiler.asks_demo,
    )


#: collector numbers are text ("9", "10", "UM01-012"): padded, "9" sorts before "10"
_NUMBER_WIDTH = 40


def _lowest_number() -> Subquery:
    """A card's lowest collector number of any printing, padded to sort as a number."""
    printings = Printing.objects.filter(card=OuterRef("pk"))
    return Subquery(
        printings.order_by(Length("collector_number"), "collector_number")
        .annotate(padded=LPad("collector_number", _NUMBER_WIDTH, Value("0")))
        .values("padded")[:1]
    )


def order_cards(
    queryset: QuerySet[Any], compiled: CompiledQuery, *, slug: str | None
) -> QuerySet[Any]:
    """``queryset`` (cards, or printings when one row per printing) in the query's order."""
    if compiled.order is None:
        return queryset
    key, descending = compiled.order
    prefix = "card__" if compiled.per_printing else ""

    def ordered(*names: str) -> list[Any]:
        return [
            F(name).desc(nulls_last=True) if descending else F(name).asc(nulls_last=True)
            for name in names
        ]

    if key == "type":
        return queryset.order_by(*ordered(f"{prefix}card_type", f"{prefix}name_en"), "pk")
    if key == "number":
        if compiled.per_printing:
            return queryset.order_by(*ordered("card_set__code", "collector_number"), "pk")
        if "first_number" not in queryset.query.annotations:
            # the catalog pages and the API annotate a set's own numbers; anyone else (the
            # deck editor) sorts by each card's lowest number of any printing
            queryset = queryset.annotate(first_number=_lowest_number())
        return queryset.order_by(*ordered("first_number", "name_en"), "pk")
    if key == "name":
        return queryset.order_by(*ordered(f"{prefix}name_en", f"{prefix}name_ja"), "pk")
    spec = fields_by_name(slug)[key] if slug else None
    keys = spec.attribute_keys if spec else (key,)
    value = Coalesce(*(F(f"{prefix}attributes__{k}") for k in keys)) if len(keys) > 1 else None
    field_name = f"{prefix}attributes__{keys[0]}"
    expression = value if value is not None else F(field_name)
    direction = expression.desc(nulls_last=True) if descending else expression.asc(nulls_last=True)
    return queryset.order_by(direction, f"{prefix}name_en", "pk")


def search_target(compiled: CompiledQuery) -> type[Card] | type[Printing]:
    return Printing if compiled.per_printing else Card
