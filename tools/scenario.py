"""`necro scenario`: run scenario files — a position, scripted answers and dice, expectations.

Independent Great Old Ones: `independents: [card, ...]` names the loyalty cards in the game (none
when absent); a player's `units` may then name a card's figure (it starts under that player's
control); `position.markers` and `position.loyalty-spellbooks` set track markers and spellbooks on
loyalty cards; `expect` may check `markers`, `loyalty-spellbooks` and `independents` (card -> the
controlling player, or null for the general pool).

`expansions: [names]` plays the scenario with only those expansions (`[]`: the base game); without
it, with every one.

`expect.legal` / `expect.not-legal` name options of the pending decision; a `not-legal` entry ending
in ` *` (`"ability x *"`) refuses every option that begins with it, whatever area or unit follows."""
from __future__ import annotations

import difflib
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.position import PositionError, build_state
from necronomicon.interpreter.effects.compiler import RuleError
from necronomicon.interpreter.diagnostics import Report
from necronomicon.interpreter.yamlpos import MAX_FILE_BYTES, load_text

#: what a malformed scenario (a value of the wrong type) may raise; reported as one FAIL line
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError, OverflowError)


@dataclass
class Outcome:
    name: str
    path: str
    failures: list[str] = field(default_factory=list)
    game: Game | None = None

    @property
    def ok(self) -> bool:
        return not self.failures


def load_spec(path: Path) -> dict[str, Any]:
    """A scenario file read through the content loader's limits (size, nesting, aliases)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the scenario: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"{path}: a scenario file is at most {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    report = Report()
    loaded = load_text(text, str(path), report)
    if loaded is None:
        d = report.items[0]
        raise ValueError(f"{d.path}:{d.line}:{d.col}: {d.message}")
    data = loaded[0]
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a scenario is a mapping")
    return data


def _units_of(game: Game, player: str, loc: str) -> list[str]:
    return sorted(u["kind"] for u in game.s.units if u["owner"] == player and u["loc"] == loc)


# every key `expect` may hold: any other is a failure (a misspelt expectation must not pass unchecked)
EXPECT_KEYS = ("power", "doom", "bank", "units", "pool", "spellbooks", "spellbook-count", "markers",
               "loyalty-spellbooks", "independents", "elder-signs", "gates", "first", "ritual", "surcharge",
               "round", "over", "instant-death", "winners", "phase", "pending", "legal", "not-legal",
               "log-contains", "log-lacks")


def check_expect(game: Game, exp: dict[str, Any]) -> list[str]:
    s = game.s
    out: list[str] = []
    for key in exp:
        if key not in EXPECT_KEYS:
            near = difflib.get_close_matches(str(key), EXPECT_KEYS, n=1)
            out.append(f"expect: no expectation named {key!r}" + (f" (did you mean {near[0]!r}?)" if near else "")
                       + f"; known: {', '.join(EXPECT_KEYS)}")

    def cmp(what: str, want: Any, got: Any) -> None:
        if want != got:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    for key in ("power", "doom", "bank"):
        for p, v in (exp.get(key) or {}).items():
            cmp(f"{key} of {p}", v, getattr(s, key).get(p, 0))
    for p, where in (exp.get("units") or {}).items():
        for loc, kinds in where.items():
            cmp(f"units of {p} in {loc}", sorted(kinds), _units_of(game, p, loc))
    for p, kinds in (exp.get("pool") or {}).items():
        got = Counter(u["kind"] for u in s.units if u["owner"] == p and u["loc"] == "pool")
        for k, n in kinds.items():
            cmp(f"{p}'s {k} in pool", n, got.get(k, 0))
    for p, books in (exp.get("spellbooks") or {}).items():
        cmp(f"spellbooks of {p}", sorted(books), sorted(s.spellbooks[p]))
    for p, n in (exp.get("spellbook-count") or {}).items():
        cmp(f"spellbook count of {p}", n, len(s.spellbooks[p]))
    for name, v in (exp.get("markers") or {}).items():
        cmp(f"marker {name}", v, s.markers.get(name))
    for card, books in (exp.get("loyalty-spellbooks") or {}).items():
        cmp(f"spellbooks on {card}", sorted(books), sorted(s.loyalty.get(card, {}).get("spellbooks", [])))
    for card, who in (exp.get("independents") or {}).items():
        figs = [u["owner"] for u in s.units if u["kind"] == s.loyalty.get(card, {}).get("kind")]
        cmp(f"controller of {card}", who, (figs[0] or None) if figs else "not in the game")
    for p, n in (exp.get("elder-signs") or {}).items():
        cmp(f"elder signs of {p}", n, len(s.elder_signs[p]))
    for loc, who in (exp.get("gates") or {}).items():
        got = None if loc not in s.gates else (s.gate_owner(loc) or "abandoned")
        cmp(f"gate in {loc}", who, got)
    for key, attr in (("first", "first"), ("ritual", "ritual"), ("surcharge", "surcharge"), ("round", "round"),
                      ("over", "over"), ("instant-death", "instant_death")):
        if key in exp:
            cmp(key, exp[key], getattr(s, attr))
    if "winners" in exp:
        cmp("winners", sorted(exp["winners"]) if exp["winners"] is not None else None,
            sorted(s.winners) if s.winners is not None else None)
    if "phase" in exp:
        cmp("phase", exp["phase"], s.step.get("phase"))
    if "pending" in exp:
        d = game.pending
        cmp("pending decision", exp["pending"], f"{d.player} {d.kind}" if d else None)
    from necronomicon.interpreter.engine.option import match_option, options_starting
    opts = game.pending.options if game.pending else ()
    for a in exp.get("legal", []):
        if match_option(opts, str(a)) is None:
            out.append(f"legal: {a!r} is not among the options {list(opts)[:10]}")
    for a in exp.get("not-legal", []):
        a = str(a)
        if a.endswith(" *"):   # 'ability x *': no option of that beginning (whatever area or unit follows)
            hits = options_starting(opts, a[:-2])
            if hits:
                out.append(f"not-legal: {a!r} is offered as {hits[0]!r}")
        elif match_option(opts, a) is not None:
            out.append(f"not-legal: {a!r} is offered")
    for text in exp.get("log-contains", []):
        if not any(text in _event_str(e) for e in game.log):
            out.append(f"log: no event matching {text!r}")
    for text in exp.get("log-lacks", []):
        hits = [e for e in game.log if text in _event_str(e)]
        if hits:
            out.append(f"log: unexpected event matching {text!r}: {_event_str(hits[0])}")
    return out


def _event_str(e: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in e.items() if k != "seq")


def run_spec(spec: dict[str, Any], content: Content, path: str = "<scenario>") -> Outcome:
    out = Outcome(spec.get("name", Path(path).stem), path)
    try:
        factions = list(spec["factions"])
        ruleset = spec["ruleset"]
        rs = content.model.rulesets[ruleset]
        layout = spec.get("map") or rs.get("map", {}).get(str(len(factions)))
        dice = [int(x) for x in spec.get("dice", [])]
        independents = list(spec.get("independents", []))  # loyalty cards in the game (none unless named)
        state = None
        if "position" in spec:
            state = build_state(content.model, ruleset, layout, factions, int(spec.get("seed", 1)), spec["position"],
                                independents)
            state = state.to_dict()
        game = Game(content, ruleset, factions, int(spec.get("seed", 1)), layout, forced_dice=dice,
                    independents=independents, _state=state)
        out.game = game
    except (KeyError, PositionError, GameError, RuleError) as exc:
        out.failures.append(f"setup: {type(exc).__name__}: {exc}")
        return out
    script = [str(a) for a in spec.get("script", [])]
    for step, answer in enumerate(script, 1):
        d = game.pending
        if d is None:
            out.failures.append(f"step {step}: the game ended before answer {answer!r}")
            return out
        try:
            game.apply(answer)
        except IllegalAction as exc:
            out.failures.append(f"step {step}: {exc} [{d.player}: {d.prompt}]")
            return out
        except GameError as exc:
            out.failures.append(f"step {step}: {exc}")
            return out
    until = spec.get("until")
    if until is not None:
        reached = _reached(game, until)
        if not reached:
            d = game.pending
            out.failures.append(f"after the script: not at '{until}'; waiting on {d.player}: {d.prompt} "
                                f"(options: {', '.join(d.options[:8])})" if d else f"after the script: not at '{until}'")
    if spec.get("strict", True) and game.rules._forced_dice:
        out.failures.append(f"{len(game.rules._forced_dice)} scripted dice were never rolled: {game.rules._forced_dice}")
    out.failures.extend(check_expect(game, spec.get("expect") or {}))
    return out


def _reached(game: Game, until: str) -> bool:
    if until == "over":
        return game.s.over
    if until.startswith("phase "):
        return game.s.step.get("phase") == until.split()[1]
    if until.startswith("decision "):
        d = game.pending
        return d is not None and f"{d.player} {d.kind}" == until[len("decision "):]
    return False


def content_for(spec: dict[str, Any], path: Path, default: Content, cache: dict[tuple[str, ...], Content]) -> Content:
    """The content a scenario names: `content: [dirs]` alone, or `content-layer: [dirs]` over the built-in
    tree; with every expansion, or only those `expansions: [names]` lists (`[]`: the base game)."""
    from necronomicon.interpreter.diagnostics import ContentError
    dirs, layered, wanted = spec.get("content"), spec.get("content-layer"), spec.get("expansions")
    if wanted is not None and not (isinstance(wanted, list) and all(isinstance(x, str) for x in wanted)):
        raise ValueError(f"expansions: should be a list of expansion names, not {wanted!r}")
    if not dirs and not layered and wanted is None:
        return default
    folders = tuple(str((path.parent / d).resolve()) for d in dirs or layered or [])
    key = ("alone" if dirs else "layered", *folders, "expansions", *(wanted if wanted is not None else ["all"]))
    if key not in cache:
        try:
            cache[key] = load_content([Path(k) for k in folders], builtin=not dirs,
                                      expansions="all" if wanted is None else list(wanted)).require_ok()
        except ContentError as exc:
            raise ValueError(" ".join(str(exc).split())) from None
    return cache[key]


def run_scenarios(files: list[str], content_dirs: list[str] | None = None) -> int:
    from necronomicon.interpreter.diagnostics import ContentError
    try:
        content = load_content([Path(d) for d in content_dirs or []], expansions="all").require_ok()
    except ContentError as exc:
        content = None  # scenarios that bring their own content can still run
        builtin_error = exc
    else:
        builtin_error = None
    failed = 0
    paths: list[Path] = []
    for f in files:
        p = Path(f)
        paths.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    cache: dict[tuple[str, ...], Content] = {}
    for p in paths:
        try:
            spec = load_spec(p)
            if content is None and not spec.get("content"):  # a layer still needs the built-in tree
                raise ValueError(f"the built-in content does not load: {builtin_error}")
            outcome = run_spec(spec, content_for(spec, p, content, cache), str(p))  # type: ignore[arg-type]
        except (OSError, GameError, *MALFORMED) as exc:
            named = isinstance(exc, MALFORMED) and not isinstance(exc, ValueError)
            print(f"FAIL {p}: {type(exc).__name__ + ': ' if named else ''}"
                  f"{' '.join(str(exc).split())[:300]}")
            failed += 1
            continue
        if outcome.ok:
            print(f"pass {p}: {outcome.name}")
        else:
            failed += 1
            print(f"FAIL {p}: {outcome.name}")
            for f in outcome.failures:
                print(f"    {f}")
    print(f"{len(paths) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_scenarios(sys.argv[1:]))
