"""The game a bot, a human or a test drives: legal_actions(), apply(), clone(), to_json()...

The public API: `current()`, `legal_actions()`, `apply()`, `why_illegal()`, `clone()`, `undo()`,
`to_json()` / `from_json()`, `view()`, plus `is_over()`, `winner()`, `digest()`, `log_lines()`.

The state is the whole game: where the rules stand is a stack of frames in it (`State.flow`,
run by engine/flow.py) and the decision waiting for an answer is `State.pending`. So a clone is a
copy of the state, a save is the state, and `apply` and `undo` go back to a kept position
(engine/checkpoints.py: one every few answers, with the answers since applied again).
"""
from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any, Callable

from ..content.build import Content
from ..content.model import ContentModel, Layout, Ruleset
from ..effects.compiler import RuleError
from .decisions import Decision, GameError, IllegalAction
from .feasible import share_memo
from . import basics, checkpoints, reachable, savefile
from .basics import emit
from .checkpoints import due
from .savefile import MAX_ANSWER
from . import flow
from .option import Option, match_option
from .rules import Rules, new_state
from .state import State

FORMAT = savefile.SAVE_FORMAT   # of saves (logs: savefile.LOG_FORMAT)

#: what a failing rule or effect may raise while an answer is applied: the game is restored, then a GameError
_FAILURES = (RuleError, RecursionError, KeyError, ValueError, TypeError, IndexError, AttributeError,
             ArithmeticError, MemoryError, AssertionError, StopIteration)


def state_digest(state: State) -> str:
    """A short hash of the board and the game's records (not of where the rule flow stands)."""
    d = json.loads(state.to_text())
    d.pop("flow", None)
    d.pop("pending", None)
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


class Game:
    """One game: the rules context (`rules`, engine/rules.py) behind the API above."""

    __slots__ = ("rules", "params", "choices", "_history")

    def __init__(self, content: Content, ruleset: str, factions: list[str], seed: int = 1,
                 layout: str | None = None, *, forced_dice: list[int] | None = None,
                 independents: list[str] | None = None, first: str | None = None,
                 _state: dict[str, Any] | None = None, _log_prefix: int = 0, _loaded: str | None = None) -> None:
        """`independents`: the loyalty cards in play (None: every playable one, see choose_independents).
        `first`: the first player at the start, a faction or "random" (drawn by the game's generator),
        where the factions' setup rules leave it open (None: the rulebook's recommendation).
        `_loaded` names the file a `_state` came from: its invariants are checked before play resumes."""
        r, left_out = Rules.checked(content, ruleset, factions, layout, independents, first)
        self.rules = r
        layout = r.layout.id
        self.params = {"ruleset": ruleset, "factions": list(factions), "seed": seed, "layout": layout,
                       "forced_dice": list(forced_dice) if forced_dice is not None else None}
        if r.content.loyalty_cards:
            self.params["independents"] = list(r.independents)
        if first is not None:
            self.params["first"] = first
        if r.content.expansions:
            self.params["expansions"] = sorted(r.content.expansions)
        r._forced_dice = list(forced_dice) if forced_dice is not None else None
        # a game loaded from a save keeps its log's length (the events themselves live in the log file)
        r.log = [{"seq": i + 1, "type": "restored"} for i in range(_log_prefix)]
        self.choices: list[str] = []
        # the positions kept for rollback and undo (engine/checkpoints.py); shared by clones (never
        # changed, only extended), so a clone is cheap
        self._history: checkpoints.History | None = None
        if _state is not None:
            r.s = State.from_dict(_state)
            if not r.s.flow and not r.s.over:   # a position written by hand: play from its phase step
                r.s.flow = [flow.frame("game")]
            if _loaded is not None:
                savefile.check_loaded_state(self, _loaded)
        else:
            r.s = new_state(r, ruleset, layout, factions, seed)
            emit(r, "game", ruleset=ruleset, layout=layout, factions=list(factions), seed=seed)
            if r.content.loyalty_cards:
                emit(r, "independents", cards=list(r.independents), left_out=left_out)
            r.s.flow = [flow.frame("game")]
        try:
            if r.s.pending is None and r.s.flow:
                flow.run(r)
        except (RuleError, RecursionError) as exc:
            raise GameError(f"the game cannot start: {exc}") from exc

    # ---- what the rules context holds, read through the game -------------------------------------
    @property
    def s(self) -> State:
        """The state: the whole game (engine/state.py)."""
        return self.rules.s

    @s.setter
    def s(self, state: State) -> None:
        self.rules.s = state

    @property
    def content(self) -> ContentModel:
        return self.rules.content

    @property
    def ruleset(self) -> Ruleset:
        return self.rules.ruleset

    @property
    def layout(self) -> Layout:
        return self.rules.layout

    @property
    def bundle(self) -> Content:
        """The checked content the game was made from (its model is `content`)."""
        return self.rules.bundle

    @property
    def log(self) -> list[dict[str, Any]]:
        """The events logged so far."""
        return self.rules.log

    @property
    def independents(self) -> list[str]:
        """The loyalty cards in play."""
        return self.rules.independents

    def set_event_hook(self, hook: Callable[[dict[str, Any]], None] | None) -> None:
        """Call `hook(event)` after every logged event (checking mode); None switches it off."""
        self.rules.set_event_hook(hook)

    # ---- driving the rules ---------------------------------------------------------------------------
    @property
    def pending(self) -> Decision | None:
        """The decision waiting for an answer (None when the game is over)."""
        r = self.rules   # (read once, and the state through it: `self.s` is a property over it)
        d = r.s.pending
        if d is None:
            return None
        obj = r._pending_obj
        if obj is not None and r._pending_of is d:   # the decision the rules just asked
            return obj
        if obj is None or obj.options != tuple(d["options"]) or obj.player != d["player"]:
            obj = r._pending_obj = flow.decision_of(d)
        r._pending_of = d
        return obj

    def _checkpoint(self) -> checkpoints.Checkpoint:
        """The position now, kept (engine/checkpoints.py). Packed, it is immutable, so clones share it."""
        fd = self.rules._forced_dice
        dice = list(fd) if fd is not None else None
        return checkpoints.Checkpoint(self.s.pack(), len(self.log), dice, len(self.choices))

    def keep_position(self) -> None:
        """Keep the position now for undo and rollback. Call it after changing `s` by hand between
        answers (a test's or a puzzle's setup): going back replays answers from the newest kept
        position, so a change no answer made is kept only from a position kept after it."""
        self._history = checkpoints.kept(self._history, self._checkpoint())

    def _put_back(self, c: checkpoints.Checkpoint) -> None:
        """The game exactly as it was at checkpoint `c`: its state, log, scripted dice and answers."""
        self.s = State.unpack(c.state)
        del self.log[c.log_length:]
        self.rules._forced_dice = list(c.dice) if c.dice is not None else None
        self.choices = self.choices[:c.answers]

    def _go_back(self, answers: int) -> bool:
        """Return to the decision after the first `answers` answers: put back the newest checkpoint
        at or before it and apply the answers given since again. False (nothing changed) when no
        such checkpoint is kept."""
        node = checkpoints.at_or_before(self._history, answers)
        if node is None:
            return False
        c = node[1]
        again = self.choices[c.answers:answers]
        self._put_back(c)
        self._history = node
        r = self.rules
        hook, r._event_hook = r._event_hook, None   # those events were seen when first logged
        try:
            for opt in again:
                r.steps = 0
                flow.run(r, opt)
                self.choices.append(opt)
        except _FAILURES as exc:   # the rules gave another result for the same answers: never seen
            self._put_back(c)
            where = flow.failure_place(exc)
            raise GameError(f"the answers after decision {c.answers} cannot be applied again "
                            f"({type(exc).__name__}: {exc}{' ' + where if where else ''}); the game is back at "
                            "that decision") from exc
        finally:
            r._event_hook = hook
        return True

    # ---- the API ----------------------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        """The options of the pending decision (empty when the game is over)."""
        return list(self.pending.options) if self.pending else []

    def current(self) -> Decision | None:
        """The pending decision: who must choose, what kind of choice, the options."""
        return self.pending

    def why_illegal(self, answer: "str | Option") -> tuple[str, str] | None:
        """None if `answer` (a label, or an `Option` record) is legal now, else (reason-code,
        sentence); nothing is changed."""
        found = self._option_named(answer)
        return None if isinstance(found, str) else found

    def _option_named(self, answer: "str | Option") -> "str | tuple[str, str]":
        """The pending decision's option that `answer` (a label, or an `Option` record) names, or
        (reason-code, sentence) why none does: the one check of `why_illegal` and `apply`."""
        d = self.pending
        if d is None:
            return ("game-over", "the game is over")
        if not isinstance(answer, str):   # (a label, most often: tested first, as an Option's miss looks up __class__)
            if not isinstance(answer, Option):
                return ("not-text", f"an answer is a string (an option's label), not {type(answer).__name__}")
            if answer.kind != d.kind:
                return ("wrong-kind", f"a '{answer.kind}' option does not answer a '{d.kind}' decision")
            answer = answer.label
        if len(answer) > MAX_ANSWER:
            return ("too-long", f"an answer of {len(answer)} characters is no option's label "
                                f"(at most {MAX_ANSWER})")
        opt = match_option(d.options, answer)
        return opt if opt is not None else self._explain(d, answer)

    def _explain(self, d: Decision, answer: str) -> tuple[str, str]:
        from .explain import explain
        return explain(self.rules, d, answer)

    def apply(self, answer: "str | Option") -> None:
        """Answer the pending decision with an option's label (as logs, saves and people give it)
        or its `Option` record. Illegal answers raise IllegalAction; the state is unchanged."""
        opt = self._option_named(answer)
        if not isinstance(opt, str):
            raise IllegalAction(*opt)
        choices = self.choices
        answers = len(choices)
        if due(self._history, answers):   # one kept every few answers: a failure goes back through it
            self.keep_position()
        r = self.rules
        r.steps = 0   # the evaluation budget (limits.MAX_STEPS) counts the rules' work, not the agent's
        try:
            flow.run(r, opt)
        except _FAILURES as exc:
            self._go_back(answers)
            where = flow.failure_place(exc)
            raise GameError(f"{type(exc).__name__}: {exc or 'an internal check failed'} "
                            f"{where + ' ' if where else ''}(after answering '{opt}'; state restored)") from exc
        choices.append(opt)

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
        """The whole game as JSON: its parameters, its state (rule flow and pending decision
        included), how many events it logged, scripted dice left, the answers given."""
        fd = self.rules._forced_dice
        dice = list(fd) if fd is not None else None
        return {"format": FORMAT, "params": copy.deepcopy(self.params), "snapshot": self.s.to_dict(),
                "log_length": len(self.log), "dice": dice, "choices": list(self.choices)}

    @classmethod
    def from_json(cls, content: Content, data: dict[str, Any], where: str = "save", *,
                  check_by_replay: bool = True, replayed: bool = False) -> "Game":
        """The game `to_json` saved, checked in full first (schema/save.schema.json, the content it
        needs, the rule flow and pending decision, the invariants), then proven reachable: its
        answers are replayed from its parameters and must reach exactly its snapshot
        (engine/reachable.py). A bad save is one SaveError line naming the JSON path. Only a test's
        or a puzzle's position set up by hand (`_state=`), which no answers reach, is loaded with
        `check_by_replay=False` (the other checks still run). `replayed=True` hands back the game the
        check replayed (the same position, with its whole log and earlier positions) instead of the
        snapshot's, so a caller that wants the log need not replay the answers a second time."""
        if not isinstance(data, dict):
            raise savefile.SaveError(f"{where}: a saved game is a JSON object, not {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise savefile.SaveError(savefile.format_refusal(where, data.get("format"), FORMAT, "save"))
        savefile.check_save(content, data, where)
        p = data["params"]
        try:
            g = cls(content, p["ruleset"], p["factions"], p["seed"], p["layout"], forced_dice=data["dice"],
                    independents=p.get("independents"), first=p.get("first"), _state=data["snapshot"],
                    _log_prefix=data["log_length"], _loaded=where)
            if check_by_replay:
                again = reachable.check_reached(lambda: cls(content, p["ruleset"], p["factions"], p["seed"], p["layout"],
                                                            forced_dice=p.get("forced_dice"),
                                                            independents=p.get("independents"), first=p.get("first")),
                                                data, where, savefile.SaveError)
                if replayed:
                    g = again
        except savefile.SaveError:
            raise
        except (GameError, RuleError) + savefile.REBUILD_ERRORS as exc:
            raise savefile.SaveError(f"{where}: the saved position cannot be resumed: "
                                     f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}") from None
        g.params = copy.deepcopy(p)
        g.choices = list(data["choices"])
        return g

    def clone(self) -> "Game":
        """An independent copy that continues exactly as this game would: a copy of the state (the
        log and the kept positions are shared until either game changes them)."""
        share_memo(self.rules)   # dry-run results, shared from now on with the clone
        g = Game.__new__(Game)
        g.params, g._history = self.params, self._history
        g.rules = self.rules.copy()   # facts derived from the position hold for the copy too
        g.choices = list(self.choices)
        return g

    def undo(self, n: int = 1) -> None:
        """Take back the last `n` answers: the game returns to the decision before them.

        It puts back the newest position kept at or before that decision (engine/checkpoints.py)
        and applies the few answers given since again; a game loaded from a file, or one taken
        back further than the positions kept, replays its answers from the start instead.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise IllegalAction("bad-undo", f"undo needs a whole number of decisions, got {n!r}")
        masked = "seed" not in self.params   # a player's masked copy (engine/seat.py): no game to replay
        if n > len(self.choices):
            raise IllegalAction("nothing-to-undo", f"only {len(self.choices)} decision(s) can be undone, not {n}"
                                + ("; this copy's hidden values are masked, so it cannot go back past its own "
                                   "answers" if masked else ""))
        if n and not self._go_back(len(self.choices) - n):
            if masked:
                raise IllegalAction("nothing-to-undo", "this copy keeps no position that far back, and its "
                                    "hidden values are masked, so it cannot be replayed")
            self._rebuild(len(self.choices) - n)

    def _rebuild(self, keep: int) -> None:
        """This game replayed from its parameters with its first `keep` answers (a game loaded from
        a file, whose earlier positions were not kept)."""
        p = self.params
        g = Game(self.bundle, p["ruleset"], p["factions"], p["seed"], p["layout"],
                 forced_dice=p.get("forced_dice"), independents=p.get("independents"), first=p.get("first"))
        hook = self.rules._event_hook
        for c in self.choices[:keep]:
            g.apply(c)
        # The same answers give the same events, except what the parameters cannot say again (why
        # Independents were left out): keep this game's own events where it has them.
        g.rules.log = [mine if mine.get("type") != "restored" else new for mine, new in zip(self.log, g.log)] \
            + g.log[len(self.log):]
        for name in Game.__slots__:
            setattr(self, name, getattr(g, name))
        if hook is not None:
            self.rules.set_event_hook(hook)

    def view(self, player: str | None) -> dict[str, Any]:
        """The position as `player` may know it (others' hidden values masked); JSON-serialisable."""
        from .view import player_view
        return player_view(self, player)

    def digest(self) -> str:
        return state_digest(self.s)

    def log_lines(self) -> list[str]:
        """The game log as JSON lines: events, then the choices and a digest of the final state."""
        lines = [json.dumps(e, sort_keys=True) for e in self.log]
        lines.append(json.dumps({"type": "choices", "format": savefile.LOG_FORMAT, "params": self.params,
                                "choices": self.choices}, sort_keys=True))
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
                 independents=p.get("independents"), first=p.get("first"))
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
