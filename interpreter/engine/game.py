"""The game a bot, a human or a test drives: legal_actions(), apply(), clone(), to_json()...

The rules run as one generator that yields a Decision whenever a player must choose. Between
steps (a turn, a phase) it yields a checkpoint, where the state is snapshotted; a failed or
illegal answer restores the snapshot and replays the turn's earlier answers, so `apply` either
succeeds or leaves the game exactly as it was.
"""
from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any, Iterator

from ..content.build import Content
from ..effects.compiler import RuleError
from .actions import ActionsMixin
from .battle import BattleMixin
from .decisions import Decision, GameError, IllegalAction, match_option
from .independents import IndependentsMixin
from . import savefile
from . import flow
from .phases import PhasesMixin
from . import doom, perform, round as round_procs, turn  # noqa: F401 (the rules' procedures register themselves)
from .state import State

FORMAT = 1

#: what a failing rule or effect may raise while an answer is applied: the game is restored, then a GameError
_FAILURES = (RuleError, RecursionError, KeyError, ValueError, TypeError, IndexError, AttributeError,
             ArithmeticError, MemoryError)


def state_digest(state: State) -> str:
    """A short hash of the board and the game's records (not of where the rule flow stands)."""
    d = json.loads(state.to_text())
    d.pop("flow", None)
    d.pop("pending", None)
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


class Game(IndependentsMixin, ActionsMixin, BattleMixin, PhasesMixin):
    def __init__(self, content: Content, ruleset: str, factions: list[str], seed: int = 1,
                 layout: str | None = None, *, forced_dice: list[int] | None = None,
                 independents: list[str] | None = None,
                 _state: dict[str, Any] | None = None, _log_prefix: int = 0, _loaded: str | None = None,
                 _resume: Any = None) -> None:
        """`independents`: the loyalty cards in play (None: every playable one, see choose_independents).
        `_loaded` names the file a `_state` came from: its invariants are checked before play resumes."""
        content.require_ok()
        self.bundle = content
        self.content = content.model
        if ruleset not in self.content.rulesets:
            raise GameError(f"unknown ruleset '{ruleset}'; known: {', '.join(sorted(self.content.rulesets))}")
        self.ruleset = self.content.rulesets[ruleset]
        for f in factions:
            if f not in self.content.factions:
                from ..diagnostics import did_you_mean
                raise GameError(f"unknown faction '{f}'{did_you_mean(f, self.content.factions)}")
        allowed = self.ruleset.get("players", [])
        if len(factions) not in allowed:
            raise GameError(f"ruleset '{ruleset}' is for {', '.join(map(str, allowed))} players, not {len(factions)}")
        if len(set(factions)) != len(factions):
            raise GameError("a faction can be played by only one player")
        layout = layout or self.ruleset.get("map", {}).get(str(len(factions)))
        if layout not in self.content.layouts:
            raise GameError(f"unknown map layout '{layout}'")
        self.layout = self.content.layouts[layout]
        if self.layout.players and len(factions) not in self.layout.players:
            raise GameError(f"map layout '{layout}' is for {', '.join(map(str, self.layout.players))} players, "
                            f"not {len(factions)}")
        if self.layout.incomplete:
            raise GameError(f"map layout '{layout}' cannot be played: it is incomplete ({self.layout.incomplete})")
        self._refuse_unknown(factions)
        self._init_core()
        try:
            self.independents, left_out = self.choose_independents(list(factions), independents)
        except RuleError as exc:
            raise GameError(str(exc)) from exc
        self.params = {"ruleset": ruleset, "factions": list(factions), "seed": seed, "layout": layout,
                       "forced_dice": list(forced_dice) if forced_dice is not None else None}
        if self.content.loyalty_cards:
            self.params["independents"] = list(self.independents)
        if self.content.expansions:
            self.params["expansions"] = sorted(self.content.expansions)
        self._forced_dice = list(forced_dice) if forced_dice is not None else None
        # a game loaded from a save keeps its log's length (the events themselves live in the log file)
        self.log: list[dict[str, Any]] = [{"seq": i + 1, "type": "restored"} for i in range(_log_prefix)]
        self.choices: list[str] = []
        self._turn: list[str] = []
        self._legacy: dict[int, Any] = {}   # transitional: rule generators not yet frames (engine/flow.py)
        self._legacy_ids = 0
        # the positions before each answer given here, newest first: (earlier, (state text, log length,
        # dice) | None); shared by clones (it is never changed, only extended), so a clone is cheap
        self._history: tuple[Any, Any] | None = None
        if _state is not None:
            self.s = State.from_dict(_state)
            if not self.s.flow and not self.s.over:   # a position written by hand: play from its phase step
                self.s.flow = [flow.frame("game")]
            if _loaded is not None:
                savefile.check_loaded_state(self, _loaded)
        else:
            self.s = self._new_state(ruleset, layout, factions, seed)
            self.emit("game", ruleset=ruleset, layout=layout, factions=list(factions), seed=seed)
            if self.content.loyalty_cards:
                self.emit("independents", cards=list(self.independents), left_out=left_out)
            self.s.flow = [flow.frame("game")]
        self._restore_point(_resume)
        try:
            self._start(_resume)
        except (RuleError, RecursionError) as exc:
            raise GameError(f"the game cannot start: {exc}") from exc

    def _refuse_unknown(self, factions: list[str]) -> None:
        for f in factions:
            fac = self.content.factions[f]
            for t in fac.units.values():
                if t.unknown:
                    raise GameError(f"faction '{f}': {t.name} has unknown {', '.join(t.unknown)}; "
                                    "a ruleset must name an interpretation before it can be played")

    def _new_state(self, ruleset: str, layout: str, factions: list[str], seed: int) -> State:
        from .position import empty_state
        return empty_state(self.content, ruleset, layout, factions, seed, self.independents)

    # ---- driving the rules ---------------------------------------------------------------------------
    @property
    def pending(self) -> Decision | None:
        """The decision waiting for an answer (None when the game is over)."""
        d = self.s.pending
        if d is None:
            return None
        obj = self.__dict__.get("_pending_obj")
        if obj is None or obj.options != tuple(d["options"]) or obj.player != d["player"]:
            obj = self._pending_obj = flow.decision_of(d)
        return obj

    def _restore_point(self, value: Any = None, resume: int | None = None) -> None:
        """Remember where the game can be rebuilt from (transitional, while rules still run as
        generators): the state before a step, the value that step receives, and from now on the
        answers given (`_turn`)."""
        self._snap = (self.s.copy(), len(self.log),
                      list(self._forced_dice) if self._forced_dice is not None else None)
        self._snap_value = value
        self._snap_steps = self.steps
        self._turn = []

    def _start(self, value: Any = None) -> None:
        if self.s.pending is None and self.s.flow:
            flow.run(self, value)

    def _advance(self, answer: str | None) -> None:
        flow.run(self, answer)

    def _restore(self, replay: list[str]) -> None:
        snap, n, dice = self._snap
        self.s = snap.copy()
        del self.log[n:]
        self._forced_dice = list(dice) if dice is not None else None
        self._depth, self._chain = [], []
        self._legacy = {}
        self.steps = self._snap_steps
        turn = list(replay)
        flow.run(self, self._snap_value)
        self._turn = []
        for a in turn:
            self._turn.append(a)
            flow.run(self, a)

    # ---- the API ----------------------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        """The options of the pending decision (empty when the game is over)."""
        return list(self.pending.options) if self.pending else []

    def current(self) -> Decision | None:
        """The pending decision: who must choose, what kind of choice, the options."""
        return self.pending

    def why_illegal(self, answer: str) -> tuple[str, str] | None:
        """None if `answer` is legal now, else (reason-code, sentence); nothing is changed."""
        d = self.pending
        if d is None:
            return ("game-over", "the game is over")
        if not isinstance(answer, str):
            return ("not-text", f"an answer is a string (an option's label), not {type(answer).__name__}")
        if len(answer) > savefile.MAX_ANSWER:
            return ("too-long", f"an answer of {len(answer)} characters is no option's label "
                                f"(at most {savefile.MAX_ANSWER})")
        if match_option(d.options, answer) is not None:
            return None
        return self._explain(d, answer)

    def _explain(self, d: Decision, answer: str) -> tuple[str, str]:
        from .explain import explain
        return explain(self, d, answer)

    def apply(self, answer: str) -> None:
        """Answer the pending decision. Illegal answers raise IllegalAction; the state is unchanged."""
        d = self.pending
        if d is None:
            raise IllegalAction("game-over", "the game is over")
        if not isinstance(answer, str):
            raise IllegalAction("not-text", f"an answer is a string (an option's label), not {type(answer).__name__}")
        if len(answer) > savefile.MAX_ANSWER:
            raise IllegalAction("too-long", f"an answer of {len(answer)} characters is no option's label "
                                f"(at most {savefile.MAX_ANSWER})")
        opt = match_option(d.options, answer)
        if opt is None:
            code, msg = self._explain(d, answer)
            raise IllegalAction(code, msg)
        before = (list(self._turn), self._snap, self._snap_value, self._snap_steps)
        # a position with no rule generator running is its state: keep a copy to put back on failure
        kept = None if self._legacy else (self.s.to_text(), len(self.log),
                                          list(self._forced_dice) if self._forced_dice is not None else None)
        self._turn.append(opt)
        self.steps = 0   # the evaluation budget (limits.MAX_STEPS) counts the rules' work, not the agent's
        try:
            self._advance(opt)
        except _FAILURES as exc:
            self._turn, self._snap, self._snap_value, self._snap_steps = before
            self._turn = list(self._turn)
            try:
                if kept is not None:
                    self._put_back(*kept)
                else:
                    # the rules may have passed a restore point before failing: rebuild from the one
                    # the answer started from, with the answers before it
                    self._restore(list(self._turn))
            except _FAILURES as again:
                raise GameError(f"{type(exc).__name__}: {exc} (after answering '{opt}'); the position before it "
                                f"cannot be rebuilt either: {again}") from exc
            raise GameError(f"{type(exc).__name__}: {exc} (after answering '{opt}'; state restored)") from exc
        self.choices.append(opt)
        # the position before this answer, for undo (None: it cannot be put back from its state alone)
        self._history = (self._history, kept)

    def _put_back(self, text: str, n: int, dice: list[int] | None) -> None:
        for gen in self._legacy.values():
            gen.close()
        self._legacy = {}
        self.s = State.from_text(text)
        del self.log[n:]
        self._forced_dice = list(dice) if dice is not None else None
        self._depth, self._chain = [], []

    def is_over(self) -> bool:
        return self.s.over

    def winner(self) -> list[str] | None:
        """None while playing; [] when humanity wins; one or more factions (a shared victory)."""
        return list(self.s.winners) if self.s.over and self.s.winners is not None else None

    def result_line(self) -> str:
        if not self.s.over:
            return "game not over"
        doom = ", ".join(f"{p} {self.s.doom[p]}" for p in self.s.players)
        if not self.s.winners:
            who = "humanity wins (no player qualified)"
        elif len(self.s.winners) == 1:
            who = f"winner: {self.s.winners[0]}"
        else:
            who = f"shared victory: {', '.join(self.s.winners)}"
        return f"{who} | round {self.s.round} | doom: {doom} | {self.s.end_reason}"

    # ---- copies and files ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        if not self._legacy:   # no rule generator running: the state is the whole game
            dice = list(self._forced_dice) if self._forced_dice is not None else None
            return {"format": FORMAT, "params": copy.deepcopy(self.params), "snapshot": self.s.to_dict(),
                    "log_length": len(self.log), "dice": dice, "turn": [], "choices": list(self.choices)}
        snap, n, dice = self._snap
        out = {"format": FORMAT, "params": copy.deepcopy(self.params), "snapshot": snap.to_dict(),
               "log_length": n, "dice": dice, "turn": list(self._turn), "choices": list(self.choices)}
        if self._snap_value is not None:
            out["resume"] = self._snap_value
        return out

    @classmethod
    def from_json(cls, content: Content, data: dict[str, Any], where: str = "save") -> "Game":
        """The game `to_json` saved, checked in full first (schema/save.schema.json, the content it
        needs, the invariants, the answers since the snapshot); a bad save is one SaveError line."""
        if not isinstance(data, dict):
            raise savefile.SaveError(f"{where}: a saved game is a JSON object, not {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise savefile.SaveError(f"{where}: format: unsupported save format {str(data.get('format'))[:40]!r}")
        savefile.check_save(content, data, where)
        p = data["params"]
        try:
            g = cls(content, p["ruleset"], p["factions"], p["seed"], p["layout"], forced_dice=data["dice"],
                    independents=p.get("independents"), _state=data["snapshot"],
                    _log_prefix=data["log_length"], _loaded=where, _resume=data.get("resume"))
            g.params = copy.deepcopy(p)
            g.choices = list(data["choices"])
            for i, a in enumerate(data["turn"]):
                opt = match_option(g.pending.options, a) if g.pending else None
                if opt is None:
                    raise savefile.SaveError(f"{where}: turn.{i}: '{a[:80]}' is not a legal answer there")
                g._turn.append(opt)
                g._advance(opt)
        except savefile.SaveError:
            raise
        except (GameError, RuleError, *savefile.REBUILD_ERRORS) as exc:
            raise savefile.SaveError(f"{where}: the saved position cannot be resumed: "
                                     f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}") from None
        return g

    def clone(self) -> "Game":
        """An independent copy that continues exactly as this game would."""
        g = Game.__new__(Game)
        g.__dict__.update({k: v for k, v in self.__dict__.items()
                           if k not in ("s", "log", "_turn", "choices", "_legacy", "_pending_obj")})
        g._init_core()
        g.log = list(self.log)
        g.choices = list(self.choices)
        g._legacy = {}
        if not self._legacy:   # the state is the whole game: copy it
            g.s = self.s.copy()
            g._forced_dice = list(self._forced_dice) if self._forced_dice is not None else None
            g.steps = self.steps
            g._turn = list(self._turn)
            return g
        g._turn = []
        g._restore(list(self._turn))
        return g

    def undo(self, n: int = 1) -> None:
        """Take back the last `n` answers: the game returns to the decision before them.

        The positions before each answer given to this game (or the game it was cloned from) are
        kept, so undo puts one back; a game loaded from a file replays its earlier answers instead.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise IllegalAction("bad-undo", f"undo needs a whole number of decisions, got {n!r}")
        if n > len(self.choices):
            raise IllegalAction("nothing-to-undo", f"only {len(self.choices)} decision(s) can be undone, not {n}")
        if n == 0:
            return
        node, back = self._history, []
        for _ in range(n):
            if node is None or node[1] is None:
                break
            back.append(node[1])
            node = node[0]
        else:   # every position taken back was kept: put the oldest back
            self._put_back(*back[-1])
            self.choices = self.choices[:len(self.choices) - n]
            self._history = node
            self._turn = []
            self._restore_point()
            return
        self._rebuild(len(self.choices) - n)

    def _rebuild(self, keep: int) -> None:
        """This game replayed from its parameters with its first `keep` answers (for a game loaded
        from a file, whose earlier positions were not kept)."""
        p = self.params
        g = Game(self.bundle, p["ruleset"], p["factions"], p["seed"], p["layout"],
                 forced_dice=p.get("forced_dice"), independents=p.get("independents"))
        hook = getattr(self, "_event_hook", None)
        for c in self.choices[:keep]:
            g.apply(c)
        # The same answers give the same events, except what the parameters cannot say again (why
        # Independents were left out): keep this game's own events where it has them.
        g.log = [mine if mine.get("type") != "restored" else new for mine, new in zip(self.log, g.log)] \
            + g.log[len(self.log):]
        # close the old rule generator while its attributes exist (its `finally` blocks use them)
        for old in self.__dict__.get("_legacy", {}).values():
            old.close()
        self.__dict__.clear()
        self.__dict__.update(g.__dict__)
        if hook is not None:
            self.set_event_hook(hook)

    def view(self, player: str | None) -> dict[str, Any]:
        """The position as `player` may know it (others' hidden values masked); JSON-serialisable."""
        from .view import player_view
        return player_view(self, player)

    def digest(self) -> str:
        return state_digest(self.s)

    def log_lines(self) -> list[str]:
        """The game log as JSON lines: events, then the choices and a digest of the final state."""
        lines = [json.dumps(e, sort_keys=True) for e in self.log]
        lines.append(json.dumps({"type": "choices", "params": self.params, "choices": self.choices}, sort_keys=True))
        lines.append(json.dumps({"type": "digest", "digest": self.digest(), "over": self.s.over}, sort_keys=True))
        return lines


def log_params(lines: list[str]) -> dict[str, Any]:
    """The game parameters recorded in a log's 'choices' line (the log is checked first)."""
    return savefile.parse_log(lines).params


def replay(content: Content, lines: "list[str] | savefile.GameLog", upto: int | None = None) -> Game:
    """Rebuild a game from its log (its parameters and choices); `upto` stops after N choices.
    A bad log, or a choice that is not legal where it stands, is one SaveError line."""
    log = lines if isinstance(lines, savefile.GameLog) else savefile.parse_log(lines)
    where = log.where
    p = log.params
    savefile.check_params(content, p, where)
    try:
        g = Game(content, p["ruleset"], p["factions"], p["seed"], p["layout"], forced_dice=p.get("forced_dice"),
                 independents=p.get("independents"))
    except GameError as exc:
        raise savefile.SaveError(f"{where}: the game cannot be set up: {exc}") from None
    for i, c in enumerate(log.choices[:upto] if upto is not None else log.choices):
        try:
            g.apply(c)
        except IllegalAction as exc:
            raise savefile.SaveError(f"{where}: choice {i + 1} of {len(log.choices)}, '{c[:80]}': {exc}") from None
        except GameError as exc:
            raise GameError(f"{where}: choice {i + 1} of {len(log.choices)}, '{c[:80]}': {exc}") from None
    return g


def load_save(content: Content, path: str | Path) -> Game:
    """The game saved in `path`, checked in full."""
    return Game.from_json(content, savefile.read_save(path), where=str(path))
