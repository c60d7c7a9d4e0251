"""Parse effect-language text into the frozen syntax tree (lark LALR, positions kept)."""
from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .. import paths
from ..limits import MAX_INT_DIGITS, MAX_NESTING, MAX_NUMBER, MAX_TEXT
from . import ast as A


class EffectSyntaxError(Exception):
    """A syntax error with its 1-based line and column inside the effect text."""

    def __init__(self, message: str, line: int, col: int):
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


@lru_cache(maxsize=4)
def _parser(start: str) -> Lark:
    return Lark(paths.grammar_file().read_text(encoding="utf-8"), parser="lalr",
                start=start, propagate_positions=True, maybe_placeholders=True)


def _pos(meta_or_tok: object) -> tuple[int, int]:
    line = getattr(meta_or_tok, "line", None)
    col = getattr(meta_or_tok, "column", None)
    return (line or 1, col or 1)


@v_args(meta=True)
class _ToAst(Transformer):  # type: ignore[type-arg]
    def program(self, meta, items):  # noqa: ANN001, ANN201
        body = tuple(i for i in items if isinstance(i, A.Node))
        return A.Program(*_pos(meta), body)

    def block(self, meta, items):  # noqa: ANN001, ANN201
        return items[0]

    def let_stmt(self, meta, items):  # noqa: ANN001, ANN201
        return A.Let(*_pos(meta), str(items[0]), items[1])

    def if_stmt(self, meta, items):  # noqa: ANN001, ANN201
        branches = [(items[0], items[1])]
        orelse = None
        for extra in items[2:]:
            if isinstance(extra, tuple) and extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            elif isinstance(extra, tuple) and extra[0] == "else":
                orelse = extra[1]
        return A.If(*_pos(meta), tuple(branches), orelse)

    def elif_clause(self, meta, items):  # noqa: ANN001, ANN201
        return ("elif", items[0], items[1])

    def else_clause(self, meta, items):  # noqa: ANN001, ANN201
        return ("else", items[0])

    def for_stmt(self, meta, items):  # noqa: ANN001, ANN201
        return A.For(*_pos(meta), str(items[0]), items[1], items[2])

    def choose_stmt(self, meta, items):  # noqa: ANN001, ANN201
        return A.Choose(*_pos(meta), items[0], tuple(items[1:]))

    def option(self, meta, items):  # noqa: ANN001, ANN201
        return A.Option(*_pos(meta), _unquote(items[0]), items[1], items[2])

    def call_stmt(self, meta, items):  # noqa: ANN001, ANN201
        return A.Do(*_pos(meta), items[0])

    def nothing_stmt(self, meta, items):  # noqa: ANN001, ANN201
        return A.Nothing(*_pos(meta))

    def call(self, meta, items):  # noqa: ANN001, ANN201
        name = items[0]
        args = []
        for a in items[1:]:
            if a is None:
                continue
            if isinstance(a, A.Arg):
                args.append(a)
            else:
                args.append(A.Arg(a.line, a.col, None, a))
        return A.Call(*_pos(name), str(name), tuple(args))

    def kwarg(self, meta, items):  # noqa: ANN001, ANN201
        return A.Arg(*_pos(items[0]), str(items[0]), items[1])

    def int_(self, meta, items):  # noqa: ANN001, ANN201
        return A.Lit(*_pos(items[0]), int(items[0]))

    def string(self, meta, items):  # noqa: ANN001, ANN201
        return A.Lit(*_pos(items[0]), _unquote(items[0]))

    def true_(self, meta, items):  # noqa: ANN001, ANN201
        return A.Lit(*_pos(meta), True)

    def false_(self, meta, items):  # noqa: ANN001, ANN201
        return A.Lit(*_pos(meta), False)

    def none_(self, meta, items):  # noqa: ANN001, ANN201
        return A.Lit(*_pos(meta), None)

    def var(self, meta, items):  # noqa: ANN001, ANN201
        return A.Var(*_pos(items[0]), str(items[0]))

    def list_(self, meta, items):  # noqa: ANN001, ANN201
        return A.ListLit(*_pos(meta), tuple(i for i in items if i is not None))

    def comprehension(self, meta, items):  # noqa: ANN001, ANN201
        return A.Comprehension(*_pos(meta), items[0], str(items[1]), items[2], items[3])

    def field(self, meta, items):  # noqa: ANN001, ANN201
        return A.Field(*_pos(items[1]), items[0], str(items[1]))

    def index(self, meta, items):  # noqa: ANN001, ANN201
        return A.Index(*_pos(meta), items[0], items[1])

    def _bin(op):  # noqa: N805, ANN001, ANN202
        def f(self, meta, items):  # noqa: ANN001, ANN202
            return A.Binary(*_pos(meta), op, items[0], items[-1])
        return f

    or_ = _bin("or")
    and_ = _bin("and")
    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    div = _bin("/")
    mod = _bin("%")
    contains = _bin("in")
    not_contains = _bin("not in")

    def compare(self, meta, items):  # noqa: ANN001, ANN201
        return A.Binary(*_pos(meta), str(items[1]), items[0], items[2])

    def not_(self, meta, items):  # noqa: ANN001, ANN201
        return A.Unary(*_pos(meta), "not", items[0])

    def neg(self, meta, items):  # noqa: ANN001, ANN201
        return A.Unary(*_pos(meta), "-", items[0])


def _unquote(tok: Token | str) -> str:
    s = str(tok)
    return s[1:-1] if len(s) >= 2 and s[0] in "'\"" else s


# Friendly messages for common mistakes, classified with lark's match_examples.
DSL_ERRORS: list[tuple[str, list[str]]] = [
    ("unclosed '(' in a call", ["gain_power(me, 1", "f(a, g(b)"]),
    ("missing value after '='", ["let x =", "let x = ;"]),
    ("'{' expected to open a block", ["if power(me) > 1 gain_power(me, 1)", "for u in units(me) kill(u)"]),
    ("unclosed block: '}' expected", ["if true { nothing", "for u in units(me) { kill(u)"]),
    ("an operator needs a value on both sides", ["let x = 1 +", "let x = power(me) >"]),
]


def _friendly(text: str, exc: UnexpectedInput) -> str:
    try:
        label = exc.match_examples(_parser("program").parse, DSL_ERRORS, use_accepts=True)
    except TypeError:
        # lark 1.3 formats a debug line with '%d' % ParserState when an example stops in the same
        # state but accepts other tokens (e.g. "f(a, g(b) not" as an expression); no label then
        label = None
    if isinstance(exc, UnexpectedToken):
        got = "end of text" if exc.token.type == "$END" else f"'{exc.token}'"
        expected = sorted(_describe(t) for t in exc.expected if not t.startswith("_"))
        detail = f"unexpected {got}; expected one of: {', '.join(expected[:8])}"
    elif isinstance(exc, UnexpectedCharacters):
        detail = f"unexpected character {text[exc.pos_in_stream]!r}" if exc.pos_in_stream < len(text) else "unexpected character"
    elif isinstance(exc, UnexpectedEOF):
        detail = "unexpected end of text"
    else:
        detail = str(exc)
    return f"{label}: {detail}" if label else detail


_NAMES = {"LPAR": "'('", "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['",
          "RSQB": "']'", "COMMA": "','", "SEMICOLON": "';'", "EQUAL": "'='", "COLON": "':'",
          "NAME": "a name", "INT": "a number", "STRING": "a string", "COMP_OP": "a comparison",
          "DOT": "'.'", "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
          "PERCENT": "'%'", "$END": "end of text"}


def _describe(term: str) -> str:
    if term in _NAMES:
        return _NAMES[term]
    return f"'{term.lower()}'" if term.isupper() else term


def _check_size(tree: Tree) -> None:  # type: ignore[type-arg]
    """Refuse a tree nested deeper than MAX_NESTING, or an integer beyond MAX_NUMBER; iterative, so
    no text can exhaust the stack here (lark's LALR parser itself keeps its stack in a list)."""
    todo: list[tuple[object, int, tuple[int, int]]] = [(tree, 1, (1, 1))]
    while todo:
        node, depth, where = todo.pop()
        if isinstance(node, Tree):
            here = _pos(node.meta) if not node.meta.empty else where
            if depth > MAX_NESTING:
                raise EffectSyntaxError(f"effect nested too deeply: more than {MAX_NESTING} levels of brackets, "
                                        "blocks and operators", *here)
            todo.extend((child, depth + 1, here) for child in node.children)
        elif isinstance(node, Token) and node.type == "INT":
            digits = str(node).lstrip("0")
            if len(digits) > MAX_INT_DIGITS or int(digits or "0") > MAX_NUMBER:
                shown = str(node) if len(str(node)) <= 12 else f"a {len(str(node))}-digit number"
                raise EffectSyntaxError(f"{shown} is larger than the limit for numbers ({MAX_NUMBER})", *_pos(node))


# Parsed texts, kept while their characters add up to at most this many: content names one text in
# several places (a condition is compiled, narrowed and proven; a YAML alias repeats it), and each
# distinct text is parsed once. Trees are frozen, so sharing one is safe.
PARSE_CACHE_CHARS = 50 * MAX_TEXT
_parsed: OrderedDict[tuple[str, str], A.Program | A.Expr | EffectSyntaxError] = OrderedDict()
_parsed_chars = [0]


def parse(text: str, start: str = "program") -> A.Program | A.Expr:
    """Parse a program (or, with start='expr', an expression). Raises EffectSyntaxError. The same
    text is parsed once (see PARSE_CACHE_CHARS)."""
    key = (text, start)
    found = _parsed.get(key)
    if found is None:
        try:
            found = _parse(text, start)
        except EffectSyntaxError as exc:
            found = exc
        _parsed[key] = found
        _parsed_chars[0] += len(text)
        while _parsed_chars[0] > PARSE_CACHE_CHARS and len(_parsed) > 1:
            (old, _), _ = _parsed.popitem(last=False)
            _parsed_chars[0] -= len(old)
    else:
        _parsed.move_to_end(key)
    if isinstance(found, EffectSyntaxError):
        raise EffectSyntaxError(found.message, found.line, found.col)
    return found


def _parse(text: str, start: str) -> A.Program | A.Expr:
    if len(text) > MAX_TEXT:
        raise EffectSyntaxError(f"effect text is {len(text)} characters; the limit is {MAX_TEXT}", 1, 1)
    try:
        tree = _parser(start).parse(text)
    except UnexpectedInput as exc:
        line = getattr(exc, "line", 1) or 1
        col = getattr(exc, "column", 1) or 1
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            lines = text.rstrip("\n").split("\n") or [""]
            line, col = len(lines), len(lines[-1]) + 1
        raise EffectSyntaxError(_friendly(text, exc), line, col) from None
    except RecursionError:
        raise EffectSyntaxError("effect nested too deeply", 1, 1) from None
    _check_size(tree)   # before the (recursive) transformer and compiler see the tree
    result = _ToAst().transform(tree)
    if isinstance(result, Tree):  # pragma: no cover - grammar guarantees a node
        raise EffectSyntaxError("could not build the syntax tree", 1, 1)
    return result
