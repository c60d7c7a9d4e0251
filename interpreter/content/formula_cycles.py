"""Combat and cost formulas that read themselves, found when content loads.

A unit's `combat:` or `cost:` and a combat modifier's `when:`/`value:` are formulas the engine
evaluates inside each other: `combat(u)` evaluates u's combat formula and every combat modifier.
A formula that reaches itself that way never ends. Here each formula is a node and each read
whose target is known from the text alone is an edge:

- `combat(subject)` in a combat modifier reads that same modifier again (for the same subject);
- `combat(x)`, `cost(x)`, `doom_value(x)` where x is `self` in a unit's own formula, or a variable
  of a `[... for x in units(kind: 'k')]` (also `pool`, `battle_units`) comprehension, read the
  combat or cost formula of those kinds.

A cycle of such edges is an error at the position of its first formula, naming the cycle. Reads
whose target depends on the game (a unit from a list of any kind, a modifier's `when`) are left to
the run-time budget (limits.MAX_FORMULA_DEPTH), which stops the game's step with a GameError.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Pos, Report
from ..effects import ast as A
from ..effects.parser import EffectSyntaxError, parse

Node = tuple[str, ...]            # ("combat", kind) | ("cost", kind) | ("modifier", ability key, index)
SUBJECT = "<subject>"             # a modifier's subject: the unit the modifier is being applied to
READS = {"combat": "combat", "cost": "cost", "doom_value": "cost"}   # query -> the formula it evaluates
KIND_SOURCES = ("units", "pool", "battle_units")                      # queries whose `kind:` names the kinds


@dataclass
class FormulaGraph:
    """The formulas seen so far (with where and what they are) and the known reads between them."""

    names: dict[Node, str] = field(default_factory=dict)
    places: dict[Node, Pos] = field(default_factory=dict)
    edges: dict[Node, set[Node]] = field(default_factory=dict)

    def add(self, node: Node, name: str, pos: Pos, text: Any, bound: dict[str, str]) -> None:
        """Formula `node` (effect text `text`, names `bound` to a kind or SUBJECT) and what it reads."""
        self.names.setdefault(node, name)
        self.places.setdefault(node, pos)
        if not isinstance(text, str):
            return
        try:
            tree = parse(text, start="expr_start")
        except EffectSyntaxError:
            return   # reported where the formula is compiled
        out = self.edges.setdefault(node, set())
        _reads(tree, {k: {v} for k, v in bound.items()}, node, out)

    def report_cycles(self, report: Report) -> None:
        """Every cycle of known reads, once, as an error at its first formula (in file order)."""
        done: set[Node] = set()
        for start in sorted(self.edges, key=lambda n: _order(self.places[n])):
            if start in done:
                continue
            path = _cycle_from(start, self.edges)
            if path is None:
                continue
            done.update(path)
            through = "" if len(path) == 1 else \
                " through " + " -> ".join(self.names.get(n, "?") for n in path[1:] + [path[0]])
            report.error(self.places[start], "formula-cycle",
                         f"{self.names[start]} reads itself{through} (the engine would evaluate it forever)")


def _order(pos: Pos) -> tuple[str, int, int]:
    return pos.path, pos.line, pos.col


def _cycle_from(start: Node, edges: dict[Node, set[Node]]) -> list[Node] | None:
    """A path start -> ... -> (back to start) along `edges`, or None."""
    seen = {start}
    stack: list[tuple[Node, list[Node]]] = [(start, [start])]
    while stack:
        node, path = stack.pop()
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                return path
            if nxt not in seen and nxt in edges:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


def _kinds_of(source: Any) -> set[str] | None:
    """The kinds a list of units `source` can hold, when its `kind:` argument is literal."""
    if not (isinstance(source, A.Call) and source.name in KIND_SOURCES):
        return None
    for arg in source.args:
        if arg.name == "kind":
            v = arg.value
            if isinstance(v, A.Lit) and isinstance(v.value, str):
                return {v.value}
            if isinstance(v, A.ListLit) and all(isinstance(i, A.Lit) and isinstance(i.value, str) for i in v.items):
                return {str(i.value) for i in v.items}   # type: ignore[attr-defined]
    return None


def _reads(node: Any, scope: dict[str, set[str]], owner: Node, out: set[Node]) -> None:
    """Add to `out` the formulas `node` reads whose kind is known from `scope` (name -> kinds)."""
    if isinstance(node, A.Comprehension):
        _reads(node.source, scope, owner, out)
        inner = dict(scope)
        kinds = _kinds_of(node.source)
        if kinds is None:
            inner.pop(node.name, None)
        else:
            inner[node.name] = kinds
        _reads(node.item, inner, owner, out)
        if node.cond is not None:
            _reads(node.cond, inner, owner, out)
        return
    if isinstance(node, A.Call) and node.name in READS and node.args:
        target = node.args[0].value
        if isinstance(target, A.Var) and target.name in scope:
            for kind in scope[target.name]:
                if kind == SUBJECT:
                    if owner[0] == "modifier" and READS[node.name] == "combat":
                        out.add(owner)
                else:
                    out.add((READS[node.name], kind))
    if dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            for child in (value if isinstance(value, tuple) else (value,)):
                if isinstance(child, A.Node):
                    _reads(child, scope, owner, out)


__all__ = ["SUBJECT", "FormulaGraph"]
