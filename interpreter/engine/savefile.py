"""Saves and game logs read from files that may be hostile.

A file is read through a size cap, parsed with bounded numbers and depth, checked against its
JSON Schema (schema/save.schema.json, schema/log.schema.json), then against the content (the
ruleset, factions, layout, expansions it names) and, for a save, the engine's invariants and the
rules' ranges for its numbers; `Game.from_json` then replays a save's answers and refuses any
difference from its snapshot (engine/reachable.py). Any bad file is one `SaveError` line naming
what is wrong and where (`params.seed`, `line 12`, `$.snapshot.ritual`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from .. import paths
from ..content.build import Content
from ..diagnostics import did_you_mean
from ..effects.compiler import RuleError
from ..limits import MAX_NUMBER
from .decisions import GameError
from .invariants import state_violations
from . import phases

if TYPE_CHECKING:
    from .host import CheckedGame

# The limits (README "Limits"): a real game's log is under 0.1 MB, ~800 lines and ~350 choices.
MAX_SAVE_BYTES = 8 * 1024 * 1024
MAX_LOG_BYTES = 32 * 1024 * 1024
MAX_LOG_LINES = 200_000
MAX_DEPTH = 32            # nesting of arrays and objects
MAX_STRING = 10_000       # characters in any one string
MAX_INT_DIGITS = 20       # any integer; the schemas narrow it (64 bits; the random state is < 2**64)
MAX_CHOICES = 100_000     # answers in a save or log (schema maxItems)
# Formats of saves and logs; older ones are refused in one line (`format_refusal`). A log is its
# parameters and answers (format 1 had no field); a save holds the rule flow, whose frames keep
# position keys: format 2 saves keyed positions by JSON text, format 3 by marshal bytes.
SAVE_FORMAT = 3
LOG_FORMAT = 2
MAX_ANSWER = 500          # characters in one answer (schema maxLength)
MAX_LOG_LENGTH = 200_000  # a save's `log_length` (schema maximum)

#: what a failure while rebuilding a loaded position may raise, turned into one SaveError line
REBUILD_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError, OverflowError)


class SaveError(GameError):
    """A save or log that cannot be loaded; the message is one line naming what is wrong."""


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "..."


# ---- reading and parsing ---------------------------------------------------------------------------
def read_capped(path: str | Path, limit: int, what: str) -> str:
    """The text of `path`, reading at most `limit` bytes (a device like /dev/zero is cut off)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except IsADirectoryError:
        raise SaveError(f"{path}: is a folder, not a {what}") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the {what}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise SaveError(f"{path}: a {what} is at most {limit} bytes; this one is larger")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number a game file may hold")


def parse_json(text: str, where: str) -> Any:
    """JSON text into data, refusing deep nesting, long strings, huge numbers, NaN and Infinity."""
    try:
        data = json.loads(text, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{where}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise SaveError(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise SaveError(f"{where}: {_short(str(exc))}") from None
    _check_bounds(data, where)
    return data


def _check_bounds(data: Any, where: str) -> None:
    """Depth and string length of parsed data (iteratively: deep data cannot exhaust the stack)."""
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    while stack:
        v, depth, path = stack.pop()
        if isinstance(v, str):
            if len(v) > MAX_STRING:
                raise SaveError(f"{where}: {path or '(top level)'}: a string of {len(v)} characters (at most {MAX_STRING})")
        elif isinstance(v, (dict, list)):
            if depth >= MAX_DEPTH:
                raise SaveError(f"{where}: {path or '(top level)'}: nested deeper than {MAX_DEPTH} levels")
            items = v.items() if isinstance(v, dict) else enumerate(v)
            for k, x in items:
                if isinstance(k, str) and len(k) > MAX_STRING:
                    raise SaveError(f"{where}: {path or '(top level)'}: a key of {len(k)} characters (at most {MAX_STRING})")
                stack.append((x, depth + 1, f"{path}.{k}" if path else str(k)))


# ---- schemas -----------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _validators() -> dict[str, Draft202012Validator]:
    folder = paths.schema_dir()
    schemas = {n: json.loads((folder / f"{n}.schema.json").read_text(encoding="utf-8")) for n in ("save", "log")}
    registry: Registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return {n: Draft202012Validator(s, registry=registry) for n, s in schemas.items()}


def _schema_message(err: ValidationError) -> str:
    while err.validator in ("oneOf", "anyOf", "allOf", "$ref") and err.context:
        err = best_match(err.context)
    where = ".".join(str(p) for p in err.absolute_path) or "(top level)"
    if err.validator == "type":
        return f"{where}: should be {_short(repr(err.validator_value), 40)}, not {type(err.instance).__name__}"
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
        if extra:
            return f"{where}: unknown key '{_short(extra[0], 40)}'{did_you_mean(extra[0], err.schema.get('properties', {}))}"
    return f"{where}: {_short(err.message)}"


def _check_answers(data: Any, key: str, where: str) -> bool:
    """A list of answers checked by hand (what the schema says of it, a hundred times faster)."""
    v = data.get(key) if isinstance(data, dict) else None
    if not isinstance(v, list):
        return False
    if len(v) > MAX_CHOICES:
        raise SaveError(f"{where}: {key}: {len(v)} answers (at most {MAX_CHOICES})")
    for i, a in enumerate(v):
        if not isinstance(a, str):
            raise SaveError(f"{where}: {key}.{i}: should be 'string', not {type(a).__name__}")
        if len(a) > MAX_ANSWER:
            raise SaveError(f"{where}: {key}.{i}: an answer of {len(a)} characters (at most {MAX_ANSWER})")
    return True


def check_schema(data: Any, schema: str, where: str) -> None:
    """Raise SaveError with the most relevant violation of schema/<schema>.schema.json. Lists of
    answers are checked by hand first and then left out of the (slow, general) schema check."""
    lists = [k for k in ("choices",) if _check_answers(data, k, where)]
    if lists:
        data = {**data, **{k: [] for k in lists}}
    err = best_match(_validators()[schema].iter_errors(data))
    if err is not None:
        raise SaveError(f"{where}: {_schema_message(err)}")


# ---- what the content must have ------------------------------------------------------------------------
def check_params(content: Content, params: dict[str, Any], where: str) -> None:
    """The ruleset, factions, layout, expansions and Independents a game names exist in `content`."""
    model = content.model
    played = sorted(params.get("expansions", []))
    if played != sorted(model.expansions):
        raise SaveError(f"{where}: the game was played with expansions [{', '.join(played)}] but the content "
                        f"loaded has [{', '.join(sorted(model.expansions))}]; load it with the same expansions")
    r = params["ruleset"]
    if r not in model.rulesets:
        raise SaveError(f"{where}: params.ruleset: unknown ruleset '{r}'{did_you_mean(r, model.rulesets)}")
    for i, f in enumerate(params["factions"]):
        if f not in model.factions:
            raise SaveError(f"{where}: params.factions.{i}: faction '{f}' is not in the loaded content "
                            f"(was the game played with --content-dir?){did_you_mean(f, model.factions)}")
    lay = params.get("layout")
    if lay is not None and lay not in model.layouts:
        raise SaveError(f"{where}: params.layout: unknown map layout '{lay}'{did_you_mean(lay, model.layouts)}")
    asked = params.get("first")   # a faction, or random (engine/round.py, RANDOM_FIRST)
    if asked is not None and asked not in [*params["factions"], "random"]:
        raise SaveError(f"{where}: params.first: '{asked}' is not one of the game's factions")
    for i, card in enumerate(params.get("independents") or []):
        if card not in model.loyalty_cards:
            raise SaveError(f"{where}: params.independents.{i}: unknown loyalty card '{card}'")


def check_save(content: Content, data: Any, where: str = "save") -> dict[str, Any]:
    """A save's data checked: bounds, schema, the content it needs, a snapshot that matches its params."""
    _check_bounds(data, where)
    check_schema(data, "save", where)
    p, s = data["params"], data["snapshot"]
    check_params(content, p, where)
    for key, want in (("ruleset", p["ruleset"]), ("players", p["factions"]), ("seed", p["seed"])):
        if s[key] != want:
            raise SaveError(f"{where}: snapshot.{key} is {_short(repr(s[key]), 60)} but params say {_short(repr(want), 60)}")
    if p.get("layout") is not None and s["layout"] != p["layout"]:
        raise SaveError(f"{where}: snapshot.layout is '{s['layout']}' but params say '{p['layout']}'")
    if data["log_length"] != s["seq"]:
        raise SaveError(f"{where}: log_length is {data['log_length']} but the snapshot has logged {s['seq']} events")
    for key in ("power", "doom", "elder_signs", "revealed", "spellbooks", "requirements"):
        if sorted(s[key]) != sorted(s["players"]):
            raise SaveError(f"{where}: snapshot.{key} has entries for [{', '.join(sorted(s[key]))}], "
                            f"not for the players [{', '.join(s['players'])}]")
    check_flow(s, where)
    return data


def format_refusal(where: str, got: Any, want: int, what: str) -> str:
    """The one line refusing a save or log of another format (1: written before the rule flow
    was kept in the state, when a game was a snapshot plus answers to replay)."""
    shown = _short(repr(got), 40)
    if what == "save" and got == 2:
        return (f"{where}: format: this save has format 2, written by an older Necronomicon whose position "
                f"keys differ; this version reads format {want} only: load it with the older version, or "
                "replay the game's log (logs are unchanged)")
    if got == 1:
        return (f"{where}: format: this {what} has format 1, written by an older Necronomicon (a snapshot "
                f"and answers to replay); this version reads format {want} only: replay it with the older "
                "version, or play the game again from its log's parameters")
    return f"{where}: format: unsupported {what} format {shown} (this version reads format {want})"


def check_flow(s: dict[str, Any], where: str) -> None:
    """Where the rules stand is well formed: known procedures at known steps, and a pending
    decision exactly while the game is not over (its player playing)."""
    from .flow import PROCS
    if s["over"]:
        if s["pending"] is not None or s["flow"]:
            raise SaveError(f"{where}: snapshot: the game is over, yet rules are still running or a decision is pending")
        return
    if s["pending"] is None or not s["flow"]:
        raise SaveError(f"{where}: snapshot: the game is not over, yet no decision is pending")
    if s["pending"]["player"] not in s["players"]:
        raise SaveError(f"{where}: snapshot.pending.player: '{_short(s['pending']['player'], 60)}' is not playing")
    for i, f in enumerate(s["flow"]):
        proc = PROCS.get(f["proc"])
        if proc is None:
            raise SaveError(f"{where}: snapshot.flow.{i}.proc: unknown procedure '{_short(f['proc'], 60)}'"
                            f"{did_you_mean(f['proc'], PROCS)}")
        step = f["at"]
        if not proc.has_step(step):
            raise SaveError(f"{where}: snapshot.flow.{i}.at: procedure '{f['proc']}' has no step '{_short(step, 60)}'")


def check_loaded_state(game: "CheckedGame", where: str = "save") -> None:
    """A position loaded from a file keeps the engine's invariants (units, Power, gates, elder signs)."""
    s = game.s
    m = game.content
    known = set(m.neutral_spellbooks).union(*(f.spellbooks for f in [*m.factions.values(), *m.loyalty_cards.values()]))
    for p in s.players:
        for b in s.spellbooks[p]:
            if b not in known:
                raise SaveError(f"{where}: snapshot.spellbooks.{p}: unknown spellbook '{_short(b, 60)}'")
    for key in ("power", "doom"):   # the engine's own bound on numbers (interpreter/limits.py)
        for p, v in getattr(s, key).items():
            if abs(v) > MAX_NUMBER:
                raise SaveError(f"{where}: snapshot.{key}.{p}: {v} is beyond the limit for numbers ({MAX_NUMBER})")
    if s.first and s.first not in s.players:
        raise SaveError(f"{where}: snapshot.first: '{_short(s.first, 60)}' is not playing")
    check_ranges(game, where)
    try:
        bad = state_violations(game)
    except REBUILD_ERRORS as exc:
        raise SaveError(f"{where}: the snapshot is inconsistent ({type(exc).__name__}: {_short(str(exc))})") from None
    if bad:
        more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        raise SaveError(f"{where}: the snapshot breaks the rules: {_short('; '.join(bad[:3]), 400)}{more}")


def check_ranges(game: "CheckedGame", where: str = "save") -> None:
    """The numbers of a loaded position within the ranges the rules keep them in: Doom never below
    0 (it is only gained, paid or lost down to 0), the Ritual marker on its track (this ruleset's,
    for this many players), the round from 1 to the ruleset's last, winners only of a finished game
    and among its players."""
    from .doom import round_limit
    s = game.s
    for p, v in s.doom.items():
        if v < 0:
            raise SaveError(f"{where}: $.snapshot.doom.{p}: {v} is below 0 (Doom is never lost below 0)")
    try:
        track = len(phases.ritual_track(game.rules))
        last = round_limit(game.rules)
    except (RuleError, ValueError, TypeError) as exc:
        raise SaveError(f"{where}: $.params.ruleset: {_short(str(exc))}") from None
    if not 0 <= s.ritual <= track:
        raise SaveError(f"{where}: $.snapshot.ritual: {s.ritual} is off the Ritual track (0 to {track} "
                        f"for {len(s.players)} players in {s.ruleset})")
    if not 1 <= s.round <= last:
        raise SaveError(f"{where}: $.snapshot.round: {s.round} is not a round of this game (1 to {last})")
    if s.winners is not None and (not s.over or any(w not in s.players for w in s.winners)):
        raise SaveError(f"{where}: $.snapshot.winners: {_short(repr(s.winners), 80)} "
                        + ("name a player who is not playing" if s.over else "in a game that is not over"))


# ---- logs ------------------------------------------------------------------------------------------------
@dataclass
class GameLog:
    """What replay needs from a log: the parameters and answers, the final digest, a failure."""

    params: dict[str, Any]
    choices: list[str]
    digest: str | None = None
    error: dict[str, Any] | None = None
    lines: int = 0
    where: str = "log"
    partial: bool = False   # no 'digest' or 'error' line: the game was stopped while its log was written
    cut: bool = False       # its last line was cut off mid-way (and left out)


def _check_event(rec: Any, where: str) -> None:
    if not isinstance(rec, dict):
        raise SaveError(f"{where}: (top level): should be 'object', not {type(rec).__name__}")
    kind, seq = rec.get("type"), rec.get("seq")
    if not isinstance(kind, str) or not 0 < len(kind) <= 200:
        raise SaveError(f"{where}: type: an event needs a 'type' (a short string)")
    if type(seq) is not int or seq < 0:
        raise SaveError(f"{where}: seq: an event needs a 'seq' (a whole number, 0 or more)")


def parse_log(lines: list[str], where: str = "log") -> GameLog:
    """Every line of a log checked (JSON, bounds, schema); the last 'choices', 'digest' and
    'error' lines kept. A log without a 'choices' line cannot be replayed."""
    if len(lines) > MAX_LOG_LINES:
        raise SaveError(f"{where}: {len(lines)} lines (a log has at most {MAX_LOG_LINES})")
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    answers: list[tuple[int, dict[str, Any]]] = []   # 'answer' lines after the last 'choices' line
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        at = f"{where}:{n}"
        if len(line) > MAX_LOG_BYTES:  # pragma: no cover - read_log caps the whole file first
            raise SaveError(f"{at}: a line of {len(line)} characters")
        rec = parse_json(line, at)
        kind = rec.get("type") if isinstance(rec, dict) else None
        if kind == "choices" and rec.get("format") != LOG_FORMAT:
            raise SaveError(format_refusal(at, rec.get("format", 1), LOG_FORMAT, "log"))
        if kind in ("choices", "digest", "error", "answer"):
            check_schema(rec, "log", at)
            if kind == "answer":
                answers.append((n, rec))
            else:
                found[kind] = (n, rec)
                answers = [] if kind == "choices" else answers
        else:  # an event: what the schema's `event` says, checked by hand (logs have thousands)
            _check_event(rec, at)
    if "choices" not in found:
        raise SaveError(f"{where}: the log has no 'choices' line (write one with `necro play --log FILE`)")
    n, rec = found["choices"]
    choices = list(rec["choices"])
    for n, a in answers:   # a log being written: the answers since its 'choices' line, in order
        if a["n"] != len(choices):
            raise SaveError(f"{where}:{n}: n: answer {a['n']} where answer {len(choices)} comes next")
        choices.append(a["answer"])
    if len(choices) > MAX_CHOICES:
        raise SaveError(f"{where}: {len(choices)} answers (at most {MAX_CHOICES})")
    return GameLog(params=rec["params"], choices=choices,
                   digest=found["digest"][1]["digest"] if "digest" in found else None,
                   error=found["error"][1] if "error" in found else None, lines=len(lines), where=where,
                   partial="digest" not in found and "error" not in found)


def read_log(path: str | Path) -> GameLog:
    """A log file read through the size cap and checked line by line. A last line cut off while
    it was written (no newline at its end, and not JSON) is left out, and the log is marked so."""
    text = read_capped(path, MAX_LOG_BYTES, "game log")
    lines = text.splitlines()
    cut = False
    if lines and not text.endswith(("\n", "\r")):
        try:
            parse_json(lines[-1], str(path))
        except SaveError:
            lines.pop()
            cut = True
    log = parse_log(lines, str(path))
    log.cut = cut
    return log


def read_save(path: str | Path) -> dict[str, Any]:
    """A save file's data, read through the size cap and parsed with bounds (not yet checked
    against the content: `Game.from_json` does that)."""
    data = parse_json(read_capped(path, MAX_SAVE_BYTES, "saved game"), str(path))
    if not isinstance(data, dict):
        raise SaveError(f"{path}: a saved game is a JSON object")
    return data


LIMITS = {
    "save file": f"{MAX_SAVE_BYTES // 2**20} MiB",
    "log file": f"{MAX_LOG_BYTES // 2**20} MiB, {MAX_LOG_LINES:,} lines",
    "nesting in a save or log": f"{MAX_DEPTH} levels",
    "a string in a save or log": f"{MAX_STRING:,} characters",
    "an integer in a save or log": f"{MAX_INT_DIGITS} digits, then 64 bits by the schema",
    "answers in a save or log": f"{MAX_CHOICES:,}, each at most {MAX_ANSWER} characters",
    "a save's log_length": f"{MAX_LOG_LENGTH:,}",
}

__all__ = ["GameLog", "LIMITS", "MAX_ANSWER", "MAX_CHOICES", "MAX_DEPTH", "MAX_INT_DIGITS", "MAX_LOG_BYTES", "MAX_LOG_LENGTH",
           "MAX_LOG_LINES", "MAX_SAVE_BYTES", "MAX_STRING", "REBUILD_ERRORS", "SaveError", "check_loaded_state", "check_ranges",
           "check_params", "check_save", "check_schema", "parse_json", "parse_log", "read_capped",
           "read_log", "read_save"]
