"""The terminal seat: a person answers decisions through the same `choose` interface as the bots.

Before every prompt the seat prints a status line (round, phase, each faction's Power and Doom)
and the options, numbered, with their cost; options that differ only by which of several
identical units they name are shown once with a count (`cultist a->b (x6)`), and choosing it
sends the first of those legal labels to the engine. Between answers a person may type `help`, `board`, `undo [N]`, `save FILE`, `quit`; a typo is explained (with a
did-you-mean) and asked again. End of input raises SeatStopped; Ctrl-C comes through as
KeyboardInterrupt. The session (tools/play_session.py) saves the game in both cases.
"""
from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, TextIO

from necronomicon.interpreter.diagnostics import did_you_mean
from necronomicon.interpreter.engine.decisions import Decision, IllegalAction
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.option import match_option, without_unit_id

from .saves import write_save
from .words import Words, words_for

__all__ = ["HumanSeat", "SeatStopped", "SeatQuit", "Choice", "group_options", "status_line"]

COMMANDS = ("help", "board", "undo", "save", "quit", "options")
HELP = """\
Answer with an option's number or its text (the text may leave out the '#unit' part).
  board        the position: Power, Doom, spellbooks, the ritual track, every area's units
  options      the options again (so does an empty line)
  undo [N]     take back your last decision (or your last N), with the bots' answers after it
  save FILE    write the game to FILE (continue it with `necro play --resume FILE`)
  quit         save the game and stop
  help         this text
Ctrl-C or end of input also saves the game before stopping."""
_NUMBER = re.compile(r"[0-9]{1,9}")   # ASCII digits only: '²' is a digit to str.isdigit()


class SeatStopped(Exception):
    """The person's input ended (end of file): the game should be saved and the program stop."""


class SeatQuit(Exception):
    """The person typed `quit`."""


@dataclass(frozen=True)
class Choice:
    """One line of the menu: what is shown and the legal labels it stands for (first is sent)."""

    shown: str
    labels: tuple[str, ...]
    plain: str = ""   # the line in the engine's ids (`unit-kind area-a->area-b`), which may be typed too


def _unit(game: Game | None, label: str) -> dict[str, Any] | None:
    uid = without_unit_id(label)[1]
    if uid is None or game is None:
        return None
    try:
        return game.s.unit(uid)
    except (KeyError, ValueError, AttributeError):
        return None


def _controls_gate(game: Game, u: dict[str, Any]) -> bool:
    g = game.s.gates.get(u.get("loc"))
    return g is not None and g.get("controller") == u.get("id")


def _unit_key(game: Game | None, label: str) -> tuple[str, str]:
    """What makes two options the same choice: the label without '#id', and the unit's record
    without its id plus whether it controls a gate (so only truly identical units are grouped)."""
    u = _unit(game, label)
    if u is None:
        return label, ""
    assert game is not None
    bare = without_unit_id(label)[0]
    if _controls_gate(game, u) and "(gate)" not in bare:
        bare += " (the gate's controller)"
    return bare, repr(sorted((k, repr(v)) for k, v in u.items() if k != "id"))


def group_options(options: tuple[str, ...], game: Game | None = None, player: str = "",
                  words: Words | None = None, decision: Decision | None = None) -> list[Choice]:
    """The menu: options naming identical units (same kind, owner, place and state, and alike in
    controlling a gate or not) are one line; the others keep their own. With `words` (and the
    `decision` they come from) each line is in content names."""
    groups: dict[tuple[str, str], list[str]] = {}
    for o in options:
        groups.setdefault(_unit_key(game, o), []).append(o)
    out = []
    for (bare, unit), labels in groups.items():
        shown = bare if unit else labels[0]
        u = _unit(game, labels[0])
        if u is not None and u.get("owner") and u.get("owner") != player:
            shown += f" [{u['owner']}]"
        plain = shown
        if words is not None and decision is not None:
            shown = words.option(decision, shown)
        elif words is not None:
            shown = words.text(shown)
        if len(labels) > 1:
            shown += f" (x{len(labels)})"
        out.append(Choice(shown, tuple(labels), plain))
    return out


def status_line(game: Game, words: Words | None = None) -> str:
    """'round 2 · action phase · Power/Doom: a 6/1, b 3/0' for the decision now pending (in
    content names with `words`)."""
    s = game.s
    w = words or Words.ids()
    phase = s.step.get("phase", s.phase)
    turn = f" · {w.name(s.step['player'])}'s turn" if s.step.get("player") else ""
    pd = ", ".join(f"{w.name(p)} {s.power[p]}/{s.doom[p]}" for p in s.players)
    return f"round {s.round} · {phase} phase{turn} · Power/Doom: {pd}"


def _cost(d: Decision, label: str) -> str:
    cost = d.context.get("costs", {}).get(label) if isinstance(d.context.get("costs"), dict) else None
    return f"  · {cost} Power" if isinstance(cost, int) and cost > 0 else ""


class HumanSeat:
    """One terminal for every human seat of a game (hot-seat): prompts show whose decision it is."""

    def __init__(self, factions: list[str], inp: TextIO | None = None, out: TextIO | None = None,
                 on_rewind: Callable[[], None] | None = None) -> None:
        self.factions = list(factions)    # the human seats this terminal answers for
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        self.game: Game | None = None
        self.on_rewind = on_rewind        # told after an undo (the session's log printer)
        self.reading = False              # True while waiting for a line (Ctrl-C is safe then)
        self._mine: list[int] | None = [] # indices in game.choices of decisions a person made
        self.seats: dict[str, str] | None = None  # faction -> agent name, kept in a `save FILE`
        self.before_read: Callable[[], None] | None = None  # called before waiting for a line
        self.words: Words | None = None   # None: the game's content names (set to Words.ids() for --ids)
        # the answer the seat's auto-answer setting gives (tools/auto_answers.py), or None: ask
        self.auto: Callable[[Game, Decision], str | None] | None = None

    def observe(self, game: Any) -> None:
        """The seat reads the game for the status line, the board, undo and save."""
        self.game = game
        if game is not None and getattr(game, "choices", None):
            self._mine = None   # a resumed game: who answered what is found when undo asks

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    # ---- the decision interface ----------------------------------------------------------------
    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        """Ask until the person gives a legal answer. After an `undo` the answer is for the
        decision the game went back to (game.pending), which is always a human seat's."""
        d = context
        said = self.auto(self.game, d) if self.auto is not None and self.game is not None else None
        if said is not None:   # not recorded as the person's: `undo` goes back past it
            w = self._words()
            self.say(f"({w.name(d.player) if w.names else d.player}: {w.option(d, said) if w.names else said}, "
                     "answered for you)")
            return said
        self._show(d)
        while True:
            line = self._read()
            word, _, rest = line.partition(" ")
            if line in ("", "options", "?"):
                self._show(d, status=False)
            elif line == "help":
                self.say(HELP)
            elif line == "board":
                self._board()
                self._show(d, status=False)
            elif word == "undo":
                d = self._undo(rest.strip(), d)
            elif word == "save":
                self._save(rest.strip())
            elif line == "quit":
                raise SeatQuit()
            else:
                ans = self._answer(d, line)
                if ans is not None:
                    self._record()
                    return ans

    def _read(self) -> str:
        try:
            self.reading = True
            if self.before_read is not None:
                self.before_read()   # a stop signal that came just before (it raises)
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
        except OSError as exc:   # the terminal is gone (closed: EIO)
            raise SeatStopped(f"the terminal failed: {exc.strerror or exc}") from None
        finally:
            self.reading = False
        if not line:
            raise SeatStopped("end of input")
        return line.strip()

    def _words(self) -> Words:
        if self.words is not None:
            return self.words
        return words_for(getattr(self.game, "content", None))

    def _show(self, d: Decision, status: bool = True) -> None:
        w = self._words()
        if status and self.game is not None:
            self.say("\n" + status_line(self.game, w))
        self.say(w.prompt(d, self.game) if w.names else f"[{d.player}] {d.prompt}")
        for i, c in enumerate(self._menu(d), 1):
            self.say(f"  {i:>3}. {c.shown}{_cost(d, c.labels[0])}")
        self.say("(type a number or an option; help for commands)")

    def _menu(self, d: Decision) -> list[Choice]:
        return group_options(d.options, self.game, d.player, self._words(), d)

    def _answer(self, d: Decision, line: str) -> str | None:
        menu = self._menu(d)
        if _NUMBER.fullmatch(line):
            n = int(line)
            if 1 <= n <= len(menu):
                return menu[n - 1].labels[0]
            self.say(f"there is no option {line}; choose 1 to {len(menu)} (help lists the commands)")
            return None
        if line in d.options:
            return line
        typed = line.casefold()
        for c in menu:   # the words shown (in any case), or the words before a spellbook's text
            if typed in (c.shown.casefold(), c.shown.split(" (x", 1)[0].casefold(), c.shown.split(": ", 1)[0].casefold(),
                         c.plain.casefold()):
                return c.labels[0]
        m = match_option(d.options, line)
        if m is not None:
            return m
        text = line if len(line) <= 60 else line[:57] + "..."
        hint = did_you_mean(line[:200], [c.shown.split(" (x", 1)[0] for c in menu] + list(COMMANDS))
        self.say(f"'{text}' is not one of the options{hint}; type a number from 1 to {len(menu)}, or help")
        return None

    # ---- commands ----------------------------------------------------------------------------
    def _board(self) -> None:
        if self.game is None:
            self.say("no game to show")
            return
        from rich.console import Console
        from .views.position_view import render_position
        width = 100 if isinstance(self.out, io.StringIO) else None
        Console(file=self.out, highlight=False, width=width).print(
            render_position(self.game, "now", ids=not self._words().names))

    def _record(self) -> None:
        if self.game is not None and self._mine is not None:
            self._mine.append(len(self.game.choices))

    def _human_indices(self) -> list[int]:
        """Which of the game's answers a person gave (found by replaying the answers once after a
        resume; the seat does not know who answered what before it joined)."""
        g = self.game
        if self._mine is None:
            seats = set(self.factions)
            p = g.params
            probe = Game(g.bundle, p["ruleset"], p["factions"], p["seed"], p["layout"],
                         forced_dice=p.get("forced_dice"), independents=p.get("independents"), first=p.get("first"))
            self._mine = []
            for i, c in enumerate(g.choices):
                d = probe.pending
                if d is not None and d.player in seats and (self.auto is None or self.auto(probe, d) != c):
                    self._mine.append(i)
                probe.apply(c)
        return self._mine

    def _undo(self, arg: str, d: Decision) -> Decision:
        g = self.game
        if g is None:
            self.say("undo needs the game")
            return d
        if arg and not _NUMBER.fullmatch(arg):
            self.say(f"undo takes a number of your decisions, not '{arg[:40]}'")
            return d
        n = int(arg) if arg else 1
        try:
            mine = [i for i in self._human_indices() if i < len(g.choices)]
        except (GameError, IllegalAction) as exc:
            self.say(f"cannot undo: the game's answers do not replay ({exc})")
            return d
        if n < 1 or not mine:
            self.say("nothing to undo: you have made no decision yet" if not mine else "undo 1 or more")
            return d
        n = min(n, len(mine))
        target = mine[-n]
        try:
            g.undo(len(g.choices) - target)
        except (GameError, IllegalAction) as exc:
            self.say(f"cannot undo: {exc}")
            return d
        self._mine = mine[:-n]
        if self.on_rewind is not None:
            self.on_rewind()
        self.say(f"undone: back to decision {target + 1} ({n} of yours taken back)")
        assert g.pending is not None
        self._show(g.pending)
        return g.pending

    def _save(self, path: str) -> None:
        if not path:
            self.say("save needs a file name: save FILE")
            return
        try:
            write_save(self.game, path, self.seats)
        except OSError as exc:
            self.say(f"cannot save to '{path}': {exc.strerror or exc}")
            return
        self.say(f"saved to {path} (continue with: necro play --resume {path})")
