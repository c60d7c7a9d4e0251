"""`necro show state`: the position in a game log at the start of a round, or after K choices.

The log's parameters and choices are replayed with the engine's own `replay` (the machinery of
`necro replay --upto`); a round is found by answering choices until the round counter reaches it,
so "the start of round N" is the first decision of round N (Action Phase, first player).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.decisions import GameError, IllegalAction
from necronomicon.interpreter.engine.game import Game, replay
from necronomicon.interpreter.engine.savefile import SaveError, read_log
from necronomicon.interpreter.engine.state import POOL

from ..words import Words, words_for
from .lookup import ShowError
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine import phases
from necronomicon.interpreter.engine import actions


def position_at(content: Content, path: Path, round_no: int | None = None, step: int | None = None) -> tuple[Game, str]:
    """The replayed game stopped at round `round_no`'s first decision or after `step` choices,
    and a phrase saying where that is."""
    log = read_log(path)
    choices = log.choices
    if step is not None:
        if not 0 <= step <= len(choices):
            raise ShowError(f"--step {step} is out of range: the log has {len(choices)} choices")
        return replay(content, log, step), f"after {step} of {len(choices)} choices"
    assert round_no is not None
    if round_no < 1:
        raise ShowError(f"--round {round_no}: rounds are numbered from 1")
    game = replay(content, log, 0)
    for i, c in enumerate(choices):
        if game.s.round >= round_no:
            return game, f"start of round {round_no} (first decision of the round, after {i} of {len(choices)} choices)"
        try:
            game.apply(c)
        except (IllegalAction, GameError) as exc:
            raise SaveError(f"{path}: choice {i + 1} of {len(choices)}, '{c[:80]}': {exc}") from None
    if game.s.round >= round_no and not game.is_over():
        return game, f"start of round {round_no} (after all {len(choices)} choices)"
    raise ShowError(f"the game in {path} ended in round {game.s.round}; there is no start of round {round_no}")


def _unit_name(game: Game, u: dict[str, Any]) -> str:
    try:
        return basics.utype(game.rules, u).name
    except (KeyError, AttributeError):
        return str(u["kind"])


def _group(game: Game, units: list[dict[str, Any]]) -> str:
    """'2 Cultist, Monster' — units of one owner counted by kind, in a stable order."""
    counts = Counter(_unit_name(game, u) for u in units)
    return ", ".join(f"{n} {k}" if n > 1 else k for k, n in sorted(counts.items()))


def _players(game: Game, w: Words) -> Table:
    s = game.s
    t = Table(title="Players (seating order)", title_justify="left", title_style="bold")
    for c in ("faction", "Power", "Doom", "elder signs", "gates", "spellbooks"):
        t.add_column(c, overflow="fold")
    for p in s.players:
        mark = " (first)" if p == s.first else ""
        books = ", ".join(w.name(b) for b in s.spellbooks[p]) or "-"
        t.add_row(w.name(p) + mark, str(s.power[p]), str(s.doom[p]), str(len(s.elder_signs[p])),
                  str(actions.gate_count(game.rules, p)), f"{len(s.spellbooks[p])}: {books}")
    return t


def _areas(game: Game, w: Words) -> Table:
    s = game.s
    t = Table(title="Map (areas with units, gates or tokens)", title_justify="left", title_style="bold")
    for c in ("area", "gate", "units"):
        t.add_column(c, overflow="fold")
    for aid in sorted(game.layout.areas):
        here = s.units_at(aid)
        tokens = [tk for tk in s.tokens if tk.get("loc") == aid]
        if not here and aid not in s.gates and not tokens:
            continue
        gate = ""
        if aid in s.gates:
            ctrl = s.controller(aid)
            gate = f"{w.name(ctrl['owner'])} ({_unit_name(game, ctrl)})" if ctrl else "abandoned"
            gate += " locked" if s.gates[aid].get("locked") else ""
        by_owner = [f"{w.name(p)}: {_group(game, s.units_at(aid, p))}" for p in s.players if s.units_at(aid, p)]
        by_owner += [w.text(f"token {tk['id']}" + (f" ({tk['owner']})" if tk.get("owner") else "")) for tk in tokens]
        t.add_row(game.layout.areas[aid].name, gate, "\n".join(by_owner))
    return t


def _off_map(game: Game, w: Words) -> Text:
    s = game.s
    lines = []
    for loc in sorted({u["loc"] for u in s.units if u["loc"] != POOL and u["loc"] not in game.layout.areas}):
        lines.append(w.text(f"{loc}: ") + "; ".join(f"{w.name(p)}: {_group(game, s.units_at(loc, p))}" for p in s.players if s.units_at(loc, p)))
    return Text("Off the map: " + (" | ".join(lines) if lines else "nothing"))


def _ritual(game: Game) -> Text:
    s = game.s
    track = phases.ritual_track(game.rules)
    cells = [f"[{v}]" if i == s.ritual else str(v) for i, v in enumerate(track)]
    end = "[END]" if s.ritual >= len(track) else "END"
    return Text("Ritual track: " + " ".join(cells) + f" {end}" + ("  (instant death)" if s.instant_death else ""))


def render_position(game: Game, where: str, ids: bool = False) -> Group:
    """The position as rich text: header, players, ritual track, map, off-map units, next decision
    (in content names; `ids`: in ids, as files name things)."""
    s = game.s
    w = words_for(game.content, ids)
    head = Text()
    head.append(f"{w.name(s.ruleset)} on {w.name(s.layout)}, seed {s.seed}: {where}\n", style="bold")
    phase = s.step.get("phase", s.phase)
    head.append(f"round {s.round}, {phase} phase" + (f", {w.name(s.step['player'])}'s turn" if s.step.get("player") else ""))
    if s.surcharge:
        head.append(f", surcharge {s.surcharge}")
    d = game.current()
    nxt = (f"next: {w.prompt(d, game)} ({len(d.options)} options)" if d and w.names
           else f"next: {d.player} chooses ({d.kind}) — {d.prompt}; {len(d.options)} options" if d
           else f"game over: {w.text(game.result_line())}")
    return Group(head, _players(game, w), _ritual(game), _areas(game, w), _off_map(game, w), Text(nxt))
