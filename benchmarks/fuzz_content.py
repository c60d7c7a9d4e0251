"""Mutate copies of the real content files and check that nothing crashes.

    python benchmarks/fuzz_content.py --mutations 2000 --seed 1

Every mutation changes one file of a copy of the whole built-in tree in a seeded, repeatable way
(a key dropped or duplicated, a value's type swapped, effect text garbled, a reference misspelt,
the YAML broken, an anchor aliased elsewhere or inside itself, the file cut short), then loads the tree as `necro validate --only` would:

- loading never raises (a crash), and every finding names the mutated tree's file, a line and a
  column inside it, a code and a message;
- a tree with errors never starts a game: `Game(...)` refuses with the findings (ContentError);
- a mutation that leaves the tree valid starts a game of a ruleset that uses the mutated file,
  which is played for a bounded number of decisions with the invariants checked, by random,
  heuristic and search bots in turn (`--agents`); a rule failure must be a one-line GameError,
  never another exception.

Files are cycled and mutation kinds rotated, so `--mutations N` with N >= files x kinds tries every
kind on every file. Unchanged files' YAML and effect parses are cached (both are pure), which
makes a mutation about 10x cheaper than a cold load; `--no-cache` checks the cache changes nothing.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import re
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from necronomicon.interpreter import paths  # noqa: E402
from necronomicon.interpreter.content import effect_build, files, load_content, schema_check  # noqa: E402
from necronomicon.interpreter.content.build import ALL_EXPANSIONS  # noqa: E402
from necronomicon.interpreter.diagnostics import ContentError, Report  # noqa: E402
from necronomicon.interpreter.engine.game import Game, GameError  # noqa: E402
from necronomicon.interpreter.engine.invariants import Checker, InvariantError  # noqa: E402
from necronomicon.interpreter.engine.seat import hand_seats  # noqa: E402

from benchmarks.soak import SETUPS, agents_for  # noqa: E402

EFFECT_KEYS = {"effect", "condition", "cost", "combat", "where", "when", "value"}
DSL_CHARS = "(){}[]:;,.'\"=<>!+-*/% 0123456789abcdefxyz_"
IDENT = re.compile(r"[a-z][a-z0-9_-]{2,}")
FINDING = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (error|warning|reading): .+ \[[a-z0-9-]+\]$")


# ---- mutations ---------------------------------------------------------------------------------------------
@dataclass
class Node:
    path: tuple[Any, ...]
    node: yaml.Node
    key: yaml.Node | None = None   # the key node, for a mapping entry's value


def _walk(node: yaml.Node, path: tuple[Any, ...] = (), key: yaml.Node | None = None) -> Iterator[Node]:
    yield Node(path, node, key)
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield from _walk(v, path + (getattr(k, "value", "?"),), k)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            yield from _walk(v, path + (i,))


def _span(n: yaml.Node) -> tuple[int, int]:
    return n.start_mark.index, n.end_mark.index


def _entries(nodes: list[Node]) -> list[Node]:
    return [n for n in nodes if n.key is not None]


def drop_key(text: str, nodes: list[Node], r: random.Random) -> str | None:
    """Remove one mapping entry (key and value)."""
    cands = _entries(nodes)
    if not cands:
        return None
    n = r.choice(cands)
    a, b = n.key.start_mark.index, n.node.end_mark.index
    return text[:a] + text[b:]


def duplicate_key(text: str, nodes: list[Node], r: random.Random) -> str | None:
    """Write one mapping entry twice."""
    cands = [n for n in _entries(nodes) if isinstance(n.node, yaml.ScalarNode)]
    if not cands:
        return None
    n = r.choice(cands)
    a, b = n.key.start_mark.index, n.node.end_mark.index
    entry = text[a:b]
    line_start = text.rfind("\n", 0, a) + 1
    flow = text[line_start:a].strip() not in ("", "-")
    sep = ", " if flow else "\n" + " " * (a - line_start)
    return text[:b] + sep + entry + text[b:]


SWAPS: list[str] = ["42", "'text'", "true", "[1, 2]", "{a: 1}", "null", "-7", "3.5", "''"]


def swap_type(text: str, nodes: list[Node], r: random.Random) -> str | None:
    """Replace a value by one of another type (a number by text, a list by a number, ...)."""
    cands = [n for n in nodes if n.key is not None or n.path and isinstance(n.path[-1], int)]
    if not cands:
        return None
    n = r.choice(cands)
    a, b = _span(n.node)
    old = text[a:b]
    new = r.choice([s for s in SWAPS if s != old.strip()])
    tail = "\n" if old.endswith("\n") else ""
    if isinstance(n.node, (yaml.MappingNode, yaml.SequenceNode)) and n.node.flow_style is False:
        new = " " + new       # a block collection starts on the next line: keep the value on the key's line
        a = text.rfind(":", 0, a) + 1 if n.key is not None else a
        tail = "\n"
    return text[:a] + new + tail + text[b:]


def _effect_scalars(nodes: list[Node]) -> list[Node]:
    return [n for n in nodes if isinstance(n.node, yaml.ScalarNode) and n.path and n.path[-1] in EFFECT_KEYS
            and n.node.tag == "tag:yaml.org,2002:str" and len(n.node.value) > 2]


def _inner(text: str, n: yaml.Node) -> tuple[int, int]:
    """The span of a scalar's characters, quotes and block indicators aside."""
    a, b = _span(n)
    if n.style in ("'", '"'):
        return a + 1, b - 1
    if n.style in ("|", ">"):
        return text.find("\n", a) + 1, b
    return a, b


def garble_effect(text: str, nodes: list[Node], r: random.Random) -> str | None:
    """Change, insert or delete a few characters of an effect, cost, condition... text."""
    cands = _effect_scalars(nodes)
    if not cands:
        return None
    n = r.choice(cands).node
    a, b = _inner(text, n)
    if b <= a:
        return None
    for _ in range(r.randint(1, 3)):
        i = r.randrange(a, b)
        op = r.choice(["replace", "insert", "delete"])
        if op == "replace" and text[i] != "\n":
            text = text[:i] + r.choice(DSL_CHARS) + text[i + 1:]
        elif op == "insert":
            text = text[:i] + r.choice(DSL_CHARS) + text[i:]
            b += 1
        elif text[i] != "\n":
            text = text[:i] + text[i + 1:]
            b -= 1
        if b <= a:
            break
    return text


def _misspell(word: str, r: random.Random) -> str:
    i = r.randrange(1, len(word))
    op = r.choice(["swap", "drop", "double", "change"])
    if op == "swap" and i < len(word) - 1:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if op == "drop":
        return word[:i] + word[i + 1:]
    if op == "double":
        return word[:i] + word[i] + word[i:]
    return word[:i] + ("x" if word[i] != "x" else "q") + word[i + 1:]


def misspell_reference(text: str, nodes: list[Node], r: random.Random) -> str | None:
    """Misspell an identifier: a plain value like an id or kind, or a name inside effect text."""
    spots: list[tuple[int, int]] = []
    for n in nodes:
        if not isinstance(n.node, yaml.ScalarNode) or n.node.tag != "tag:yaml.org,2002:str":
            continue
        a, b = _inner(text, n.node)
        if n.path and n.path[-1] in EFFECT_KEYS:
            spots += [(a + m.start(), a + m.end()) for m in IDENT.finditer(text[a:b])]
        elif IDENT.fullmatch(text[a:b]):
            spots.append((a, b))
    if not spots:
        return None
    a, b = r.choice(spots)
    new = _misspell(text[a:b], r)
    return text[:a] + new + text[b:] if new != text[a:b] else None


def break_syntax(text: str, nodes: list[Node], r: random.Random) -> str | None:
    """Break the YAML: a stray indicator, a tab, an unclosed bracket or quote, a line shifted."""
    lines = text.split("\n")
    i = r.randrange(len(lines))
    op = r.choice(["indicator", "tab", "bracket", "quote", "dedent", "indent"])
    line = lines[i]
    j = r.randint(0, len(line))
    if op == "indicator":
        lines[i] = line[:j] + r.choice([": ", "- ", "? ", "&", "*x", "!!binary ", "!!timestamp ", "!!int ", "!!float ",
                                        "!!set ", "%", "@", "`", "|", ">"]) + line[j:]
    elif op == "tab":
        lines[i] = "\t" + line
    elif op == "bracket":
        lines[i] = line[:j] + r.choice("[{]}") + line[j:]
    elif op == "quote":
        lines[i] = line[:j] + r.choice("'\"") + line[j:]
    elif op == "dedent":
        lines[i] = line.lstrip()
    else:
        lines[i] = "   " + line
    return "\n".join(lines)


def alias(text: str, nodes: list[Node], r: random.Random) -> str | None:
    """Anchor a value and alias it in another place, or inside itself (a recursive alias)."""
    flows = [n for n in nodes if isinstance(n.node, yaml.SequenceNode) and n.node.flow_style]
    if flows and r.random() < 0.5:
        n = r.choice(flows).node
        a, b = _span(n)
        return text[:a] + "&loop " + text[a:b - 1] + ", *loop" + text[b - 1:]
    scalars = [n for n in nodes if isinstance(n.node, yaml.ScalarNode) and n.key is not None and n.node.style is None]
    if len(scalars) < 2:
        return None
    x, y = sorted(r.sample(scalars, 2), key=lambda n: n.node.start_mark.index)
    (xa, _), (ya, yb) = _span(x.node), _span(y.node)
    return text[:xa] + "&same " + text[xa:ya] + "*same" + text[yb:]


def truncate(text: str, nodes: list[Node], r: random.Random) -> str | None:
    """Cut the file short at a random character (possibly to nothing)."""
    return text[:r.randrange(0, len(text))]


MUTATIONS: dict[str, Callable[[str, list[Node], random.Random], str | None]] = {
    "drop-key": drop_key, "duplicate-key": duplicate_key, "swap-type": swap_type,
    "garble-effect": garble_effect, "misspell-reference": misspell_reference,
    "break-syntax": break_syntax, "alias": alias, "truncate": truncate,
}


def mutate(text: str, kind: str, r: random.Random) -> str | None:
    nodes = list(_walk(yaml.compose(text, Loader=yaml.SafeLoader)))
    return MUTATIONS[kind](text, nodes, r)


# ---- cached parsing of unchanged files -------------------------------------------------------------------------
@contextmanager
def parse_cache() -> Iterator[None]:
    """Cache YAML loads of unchanged files, schema checks of unchanged documents that passed, and
    effect parses: each is a pure function of its text or data."""
    real_load, real_parse, real_check = files.load_file, effect_build.parse, schema_check.check
    loads: dict[tuple[str, str], Any] = {}
    parses: dict[tuple[str, str], Any] = {}
    passed: set[tuple[str, str]] = set()

    def load_file(path: Path, report: Report) -> Any:
        try:
            key = (str(path), path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            return real_load(path, report)
        if key in loads:
            data, positions = loads[key]
            return copy.deepcopy(data), positions
        mine = Report()
        got = real_load(path, mine)
        report.items.extend(mine.items)
        if got is not None and not mine.items:
            loads[key] = (copy.deepcopy(got[0]), got[1])
        return got

    def parse(text: str, start: str = "program") -> Any:
        key = (text, start)
        if key not in parses:
            parses[key] = real_parse(text, start)   # a syntax error is raised, not cached
        return parses[key]

    def check(doc: Any, report: Report) -> bool:
        try:
            key = (doc.path, json.dumps(doc.data, sort_keys=True))
        except (TypeError, ValueError):
            return real_check(doc, report)
        if key in passed:
            return True
        mine = Report()
        ok = real_check(doc, mine)
        report.items.extend(mine.items)
        if ok and not mine.items:
            passed.add(key)
        return ok

    files.load_file, effect_build.parse, schema_check.check = load_file, parse, check
    try:
        yield
    finally:
        files.load_file, effect_build.parse, schema_check.check = real_load, real_parse, real_check


# ---- the run ------------------------------------------------------------------------------------------------
@dataclass
class Figures:
    tried: int = 0
    unchanged: int = 0
    with_errors: int = 0
    findings: int = 0
    valid: int = 0
    games_played: int = 0
    game_errors: int = 0
    crashes: int = 0
    bad_findings: int = 0
    games_started_with_errors: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    games_by_agents: dict[str, int] = field(default_factory=dict)   # games played, per `agents` entry
    problems: list[str] = field(default_factory=list)
    game_error_samples: list[str] = field(default_factory=list)   # content the validator let through

    def line(self) -> str:
        return (f"{self.tried} mutations tried ({self.unchanged} left the file unchanged), "
                f"{self.with_errors} refused with {self.findings} findings, {self.valid} still valid "
                f"({self.games_played} games played, {self.game_errors} stopped by a one-line GameError); "
                f"crashes {self.crashes}, findings without a position {self.bad_findings}, "
                f"games started despite errors {self.games_started_with_errors}")


def _setup_for(model: Any, rel: str) -> tuple[str, list[str]] | None:
    stem = Path(rel).stem
    if rel.startswith("factions/"):
        setup = next((s for s in SETUPS if stem in s[1]), None)
    elif rel.startswith("rulesets/"):
        setup = next((s for s in SETUPS if s[0] == stem), None)
    else:
        setup = SETUPS[0]
    if setup is None or setup[0] not in model.rulesets or any(f not in model.factions for f in setup[1]):
        return None
    return setup[0], list(setup[1])


def check_tree(root: Path, rel: str, fig: Figures, play_decisions: int, seed: int,
               agents: str = "random") -> None:
    """Load the (mutated) tree and check the findings, the refusal, or a short game between
    `agents` (benchmarks/soak.py's `agents_for` names)."""
    where = f"{rel} (seed {seed})"
    try:
        content = load_content([root], builtin=False, expansions=ALL_EXPANSIONS)   # as `necro validate` loads
    except Exception as exc:  # noqa: BLE001 - a crash is what the fuzzer looks for
        fig.crashes += 1
        fig.problems.append(f"{where}: load crashed: {type(exc).__name__}: {exc}")
        return
    items = content.report.items
    for d in items:
        text = d.render()
        m = FINDING.match(text)
        inside = Path(d.path) == root or root in Path(d.path).parents
        n_lines = (Path(d.path).read_text(encoding="utf-8", errors="replace").count("\n") + 2
                   if Path(d.path).is_file() else 1)
        if not (m and inside and d.line >= 1 and d.col >= 1 and d.line <= n_lines and d.message and "\n" not in text):
            fig.bad_findings += 1
            fig.problems.append(f"{where}: finding without a good position: {text!r}")
    if content.report.errors:
        fig.with_errors += 1
        fig.findings += len(items)
        try:
            Game(content, "duel", ["sleeper", "wind-rider"], seed)
        except ContentError as exc:
            if not exc.diagnostics:
                fig.problems.append(f"{where}: refused without findings")
        except Exception as exc:  # noqa: BLE001
            fig.crashes += 1
            fig.problems.append(f"{where}: refusing crashed: {type(exc).__name__}: {exc}")
        else:
            fig.games_started_with_errors += 1
            fig.problems.append(f"{where}: a game started on content with errors")
        return
    fig.valid += 1
    setup = _setup_for(content.model, rel)
    if setup is None or play_decisions <= 0:
        return
    try:
        g = Game(content, setup[0], setup[1], seed)
        fig.games_played += 1
        fig.games_by_agents[agents] = fig.games_by_agents.get(agents, 0) + 1
        bots = agents_for(agents, seed, setup[1])
        hand_seats(g, bots)
        checker = Checker(g)
        n = 0
        while g.pending is not None and n < play_decisions:
            d = g.pending
            checker.apply(bots[d.player].choose(d.player, d.options, d))
            n += 1
        checker.detach()
    except (GameError, InvariantError) as exc:
        fig.game_errors += 1
        fig.game_error_samples.append(f"{where}: {exc}")
        if "\n" in str(exc):
            fig.problems.append(f"{where}: a game error of several lines: {exc}")
    except Exception as exc:  # noqa: BLE001
        fig.crashes += 1
        fig.problems.append(f"{where}: playing crashed: {type(exc).__name__}: {exc}")


# the bots of the games on still-valid trees, mutation by mutation: random bots alone never reach
# many positions real play reaches
AGENT_ROTATION = ("random", "heuristic", "mixed+mcts:4:depth=10")


def fuzz(mutations: int, seed: int = 1, play_decisions: int = 150, cache: bool = True,
         only: list[str] | None = None, first: int = 0,
         agents: tuple[str, ...] = AGENT_ROTATION) -> Figures:
    """Try `mutations` seeded mutations of the built-in content tree (numbered from `first`: a
    problem reported at check seed S of run seed R is mutation number S - R * 7919). The games on
    still-valid trees cycle through `agents`, one entry per mutation."""
    src = paths.content_dir()
    rels = sorted(str(p.relative_to(src)) for p in src.rglob("*.yaml"))
    rels = [r for r in rels if only is None or r in only]
    kinds = list(MUTATIONS)
    fig = Figures()
    with tempfile.TemporaryDirectory(prefix="necro-fuzz-") as tmp, (parse_cache() if cache else _nothing()):
        root = Path(tmp) / "content"
        shutil.copytree(src, root)
        originals = {r: (root / r).read_text(encoding="utf-8") for r in rels}
        for i in range(first, first + mutations):
            rel = rels[i % len(rels)]
            kind = kinds[(i // len(rels)) % len(kinds)]
            r = random.Random(seed * 1_000_003 + i)
            new = mutate(originals[rel], kind, r)
            fig.tried += 1
            fig.by_kind[kind] = fig.by_kind.get(kind, 0) + 1
            if new is None or new == originals[rel]:
                fig.unchanged += 1
                continue
            (root / rel).write_text(new, encoding="utf-8")
            try:
                check_tree(root, rel, fig, play_decisions, seed * 7919 + i, agents[i % len(agents)])
            finally:
                (root / rel).write_text(originals[rel], encoding="utf-8")
    return fig


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mutations", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--play", type=int, default=150, help="decisions to play on a still-valid tree (0: none)")
    ap.add_argument("--no-cache", action="store_true", help="parse every file every time")
    ap.add_argument("--first", type=int, default=0, help="number of the first mutation (to repeat one)")
    ap.add_argument("--agents", default=",".join(AGENT_ROTATION),
                    help="the bots of the games, cycled mutation by mutation: a comma list of soak.py "
                         f"--agents values (default {','.join(AGENT_ROTATION)})")
    a = ap.parse_args(argv)
    t = time.perf_counter()
    rotation = tuple(s for s in a.agents.split(",") if s)
    for spec in rotation:   # a wrong name is one line now, not a traceback in the first game
        try:
            agents_for(spec, 0, ["a", "b"])
        except ValueError as exc:
            ap.error(str(exc))
    fig = fuzz(a.mutations, a.seed, a.play, cache=not a.no_cache, first=a.first, agents=rotation or AGENT_ROTATION)
    dt = time.perf_counter() - t
    print(fig.line() + f"; {fig.tried / dt:.1f} mutations/s")
    print("by kind: " + ", ".join(f"{k} {v}" for k, v in fig.by_kind.items()))
    print("games by bots: " + ", ".join(f"{k} {v}" for k, v in fig.games_by_agents.items()))
    for p in fig.problems[:30]:
        print("  " + p)
    if fig.game_error_samples:
        print("rule errors in games on mutated content the validator accepted (candidates for load-time checks):")
        for p in fig.game_error_samples[:15]:
            print("  " + p[:300])
    return 1 if fig.crashes or fig.bad_findings or fig.games_started_with_errors else 0


if __name__ == "__main__":
    sys.exit(main())
