"""The card search language's grammar (lark, LALR) and its syntax tree.

    kestrel  "night guard"  value>=3  -type:scheme  (boost:2 or boost:3)  order:name dir:desc

Words and "phrases" match names; ``field:value`` and ``field<op>number`` test a field; a
leading ``-`` negates; juxtaposition is AND, ``or`` binds looser than AND; parentheses group.
Full-width syntax characters (``：（）－＜＞＝``, the ideographic space) and 「」 quotes are read
as their ASCII forms, one character for one, so every position still points into the text the
player typed. This module knows nothing of games or the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from catalog.query.errors import (
    EMPTY_GROUP,
    MISSING_VALUE,
    UNCLOSED_GROUP,
    UNCLOSED_QUOTE,
    UNEXPECTED,
    UNOPENED_GROUP,
    QueryError,
)

MAX_QUERY_LENGTH = 500

GRAMMAR = r"""
start: expr?
?expr: and_ (_OR and_)*   -> any_of
?and_: unary+             -> all_of
?unary: NEG unary         -> negate
      | "(" expr ")"
      | FIELD OP value    -> compare
      | WORD              -> word
      | PHRASE            -> word
?value: WORD | PHRASE

FIELD.3: /[A-Za-z][A-Za-z0-9_]*(?=<=|>=|!=|<|>|=|:)/
OP.3: "<=" | ">=" | "!=" | "<" | ">" | "=" | ":"
_OR.2: /or(?=[\s()]|$)/i
NEG.2: /-(?=[^\s)])/
PHRASE: /"[^"]*"/
WORD: /[^\s()"][^\s()"]*/
%ignore /\s+/
"""

# One character for one: positions in the translated text are positions in the original.
_ASCII_SYNTAX = str.maketrans(
    {
        # full-width ASCII (ｔｙｐｅ：ｈｅｒｏ) to ASCII, and the ideographic space
        **{chr(code): chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)},
        "\u3000": " ",
        "「": '"',
        "」": '"',
        "“": '"',
        "”": '"',
    }
)


@dataclass(frozen=True)
class Word:
    """A bare word or a quoted phrase: matched against the names."""

    text: str
    pos: int
    quoted: bool = False


@dataclass(frozen=True)
class Compare:
    """``field op value``; ``pos`` is the field's position, ``value_pos`` the value's."""

    field: str
    op: str
    value: str
    pos: int
    value_pos: int


@dataclass(frozen=True)
class Not:
    node: Node
    pos: int


@dataclass(frozen=True)
class All:
    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class Any_:
    nodes: tuple[Node, ...]


Node = Word | Compare | Not | All | Any_


class _ToTree(Transformer[Token, Node | None]):
    def start(self, children: list[Node]) -> Node | None:
        return children[0] if children else None

    def any_of(self, children: list[Node]) -> Node:
        return Any_(tuple(children)) if len(children) > 1 else children[0]

    def all_of(self, children: list[Node]) -> Node:
        return All(tuple(children)) if len(children) > 1 else children[0]

    def negate(self, children: list[Token | Node]) -> Node:
        sign, node = children
        assert isinstance(sign, Token) and not isinstance(node, Token)
        return Not(node, sign.start_pos or 0)

    @v_args(inline=True)
    def compare(self, field: Token, op: Token, value: Token) -> Node:
        text, quoted = _unquote(value)
        return Compare(
            field=str(field).casefold(),
            op=str(op),
            value=text,
            pos=field.start_pos or 0,
            value_pos=(value.start_pos or 0) + (1 if quoted else 0),
        )

    @v_args(inline=True)
    def word(self, token: Token) -> Node:
        text, quoted = _unquote(token)
        return Word(text, (token.start_pos or 0) + (1 if quoted else 0), quoted)


def _unquote(token: Token) -> tuple[str, bool]:
    text = str(token)
    if token.type == "PHRASE":
        return text[1:-1], True
    return text, False


@cache
def _parser() -> Lark:
    # LALR with the contextual lexer: linear time, and after ``field:`` only a value is read.
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", maybe_placeholders=False)


def parse(text: str) -> Node | None:
    """The syntax tree of ``text`` (None for an empty query); ``QueryError`` with the position
    of the first problem otherwise."""
    if len(text) > MAX_QUERY_LENGTH:
        text = text[:MAX_QUERY_LENGTH]
    ascii_text = text.translate(_ASCII_SYNTAX)
    try:
        tree = _parser().parse(ascii_text)
    except UnexpectedInput as exc:
        raise _syntax_error(ascii_text, exc) from None
    node: Node | None = _ToTree().transform(tree)
    return node


def _syntax_error(text: str, exc: UnexpectedInput) -> QueryError:
    if isinstance(exc, UnexpectedEOF):
        return _at_end(text)
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        if text[pos] == '"':
            return QueryError(UNCLOSED_QUOTE, pos)
        return QueryError(UNEXPECTED, pos, token=text[pos])
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    if token.type == "$END":
        return _at_end(text)
    pos = token.start_pos or 0
    previous = text[:pos].rstrip()
    if token.type == "RPAR":
        if previous.endswith("("):
            return QueryError(EMPTY_GROUP, pos)
        if previous.endswith(tuple(":<>=")):
            return QueryError(MISSING_VALUE, pos, token=previous.split()[-1])
        return QueryError(UNOPENED_GROUP, pos)
    if previous.endswith(tuple(":<>=")) and text[pos - 1].isspace():
        return QueryError(MISSING_VALUE, pos, token=previous.split()[-1])
    return QueryError(UNEXPECTED, pos, token=str(token))


def _at_end(text: str) -> QueryError:
    stripped = text.rstrip()
    if stripped.endswith(tuple(":<>=")):
        return QueryError(MISSING_VALUE, len(stripped), token=stripped.split()[-1])
    if text.count("(") > text.count(")"):
        return QueryError(UNCLOSED_GROUP, text.rfind("("))
    return QueryError(UNEXPECTED, len(stripped), token=stripped[-1:] or "")
