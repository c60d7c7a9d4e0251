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
from . import neutral
from .actions import ActionsMixin
from .battle import BattleMixin
from .decisions import Decision, GameError, IllegalAction, match_option
from .independents import IndependentsMixin
from . import savefile
from .phases import CHECKPOINT, PhasesMixin
from .state import State

FORMAT = 1

#: what a failing rule or effect may raise while an answer is applied: the game is restored, then a GameError
_FAILURES = (RuleError, RecursionError, KeyError, ValueError, TypeError, IndexError, AttributeError,
             ArithmeticError, MemoryError)


def state_digest(state: State) -> str:
    return hashlib.sha256(json.dumps(json.loads(state.to_text()), sort_keys=True).encode()).hexdigest()[:16]


class Game(IndependentsMixin, ActionsMixin, BattleMixin, PhasesMixin):
    def __init__(self, content: Content, ruleset: str, factions: list[str], seed: int = 1,
                 layout: str | None = None, *, forced_dice: list[int] | None = None,
                 independents: list[str] | None = None,
                 _state: dict[str, Any] | None = None, _log_prefix: int = 0, _loaded: str | None = None) -> None:
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
        self.pending: Decision | None = None
        if _state is not None:
            self.s = State.from_dict(_state)
            if _loaded is not None:
                savefile.check_loaded_state(self, _loaded)
        else:
            self.s = self._new_state(ruleset, layout, factions, seed)
            self.emit("game", ruleset=ruleset, layout=layout, factions=list(factions), seed=seed)
            if self.content.loyalty_cards:
                self.emit("independents", cards=list(self.independents), left_out=left_out)
        self._checkpoint()
        try:
            self._start()
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

    # ---- driving the generator -------------------------------------------------------------------
    def _checkpoint(self) -> None:
        self._snap = (self.s.copy(), len(self.log),
                      list(self._forced_dice) if self._forced_dice is not None else None)
        self._turn = []

    def _start(self) -> None:
        self._gen: Iterator[Any] = self.run_steps()
        self._advance(None, first=True)

    def _advance(self, answer: str | None, first: bool = False) -> None:
        while True:
            try:
                item = next(self._gen) if first else self._gen.send(answer)  # type: ignore[attr-defined]
            except StopIteration:
                self.pending = None
                return
            first, answer = False, None
            if item is CHECKPOINT:
                self._checkpoint()
                self.steps = 0   # a restored game starts counting here too: the budget replays exactly
                first = True
                continue
            if isinstance(item, Decision):
                self.pending = item
                return
            raise RuleError(f"internal: the rules yielded {item!r}")  # pragma: no cover

    def _restore(self, replay: list[str]) -> None:
        snap, n, dice = self._snap
        self.s = snap.copy()
        del self.log[n:]
        self._forced_dice = list(dice) if dice is not None else None
        self._depth, self._chain = [], []
        saved = list(self._turn)
        self._gen = self.run_steps()
        self._advance(None, first=True)
        self._turn = []
        for a in replay:
            self._turn.append(a)
            self._advance(a)
        assert self._turn == replay or saved is not None

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
        words = answer.split()
        p = d.player
        if d.kind == "action" and words:
            verb = words[0]
            f = self.faction(p)
            if verb in ("summon", "recruit", "awaken") and len(words) >= 2:
                t = (self.awaken_type(p, words[1]) if verb == "awaken"
                     else f.units.get(words[1]) or (self.kind_type(p, words[1]) if verb == "summon" else None))
                if t is None:
                    return ("unknown-unit", f"{p} has no unit '{words[1]}'")
                if not (self.awaken_pool(p, t.id) if verb == "awaken" else self.s.pool(p, t.id)):
                    return ("none-in-pool", f"{verb.capitalize()} {t.name}: none left in your pool")
                try:
                    cost = self.unit_cost(p, t)
                except RuleError as exc:
                    return ("unknown-cost", str(exc))
                if verb == "summon" and not self.may_summon(p, t):
                    return ("may-not-summon", f"Summon {t.name}: an ongoing ability forbids summoning it now")
                if cost > self.s.power[p]:
                    return ("not-enough-power", f"{verb.capitalize()} {t.name} costs {cost}, you have {self.s.power[p]}")
                if verb == "summon" and len(words) >= 3 and self.s.gate_owner(words[2]) != p:
                    return ("no-controlled-gate", f"you control no gate in '{words[2]}'")
            if verb in ("battle", "extra-battle") and len(words) >= 2 and words[1] in self.s.memory.get("battles", []):
                return ("one-battle-per-area", f"there was already a battle in '{words[1]}' this turn")
            if verb == "ability" and len(words) >= 2:
                why = neutral.refusal(self, words[1])
                if why is not None:
                    return why
                ab = next((a for a in self.active_abilities(p) if a.id == words[1] and a.effect is not None), None)
                if ab is not None and ab.window in ("action", "unlimited-action"):
                    why = self._why_ability(ab, p, words[2] if len(words) >= 3 else None)
                    if why is not None:
                        return why
            if verb == "pass" and not self.can_pass(p):
                return ("no-voluntary-drop", f"you cannot drop to 0 Power with {self.s.power[p]} Power")
        shown = ", ".join(d.options[:12]) + (" ..." if len(d.options) > 12 else "")
        said = answer if answer.isprintable() else repr(answer)[1:-1]   # one line, whatever was typed
        return ("not-an-option", f"'{said}' is not a legal choice for {d.player} ({d.prompt}); legal: {shown}")

    def _why_ability(self, ab: Any, p: str, area: str | None) -> tuple[str, str] | None:
        """Why an action ability is refused: a required part impossible (in the named area, or in
        every area it may end in), or, for an ability with `where:`, no area named."""
        if ab.where is None:
            areas: list[Any] = [None]
        else:
            ctx = self.ctx(p, ability=ab, self_unit=self.self_unit_for(ab, p))
            if not self.usable(ab, p, ctx, check_cost=False):   # `where:` may assume the condition
                return None
            areas = [area] if area is not None else sorted(set(ab.where(ctx) or []))
        if areas and not any(self.all_parts_possible(ab, p, a) for a in areas):
            return ("missing-part", f"{ab.name}: not every part of it can be done now (a required "
                                    "choice would have no option), so it cannot be performed")
        if ab.where is not None and area is None and areas:
            return ("needs-area", f"{ab.name} is one action per area it ends in: answer "
                                  f"'ability {ab.id} AREA' (AREA one of {', '.join(map(str, areas))})")
        return None

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
        before, snap = list(self._turn), self._snap
        self._turn.append(opt)
        self.steps = 0   # the evaluation budget (limits.MAX_STEPS) counts the rules' work, not the agent's
        try:
            self._advance(opt)
        except _FAILURES as exc:
            # the rules may have passed a checkpoint before failing: rebuild from the one the answer
            # started from, with the turn's answers before it
            self._snap = snap
            try:
                self._restore(before)
            except _FAILURES as again:
                raise GameError(f"{type(exc).__name__}: {exc} (after answering '{opt}'); the position before it "
                                f"cannot be rebuilt either: {again}") from exc
            raise GameError(f"{type(exc).__name__}: {exc} (after answering '{opt}'; state restored)") from exc
        self.choices.append(opt)

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
        snap, n, dice = self._snap
        return {"format": FORMAT, "params": copy.deepcopy(self.params), "snapshot": snap.to_dict(),
                "log_length": n, "dice": dice, "turn": list(self._turn), "choices": list(self.choices)}

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
                    _log_prefix=data["log_length"], _loaded=where)
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
        g.__dict__.update({k: v for k, v in self.__dict__.items() if k not in ("_gen", "s", "log", "_turn", "choices")})
        g._init_core()
        g.log = list(self.log)
        g.choices = list(self.choices)
        g._snap = self._snap
        g._turn = []
        g._restore(list(self._turn))
        return g

    def undo(self, n: int = 1) -> None:
        """Take back the last `n` answers: the game returns to the decision before them.

        Today the game is rebuilt from its parameters and the remaining answers (a replay); the
        answers were all checked when they were first given.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise IllegalAction("bad-undo", f"undo needs a whole number of decisions, got {n!r}")
        if n > len(self.choices):
            raise IllegalAction("nothing-to-undo", f"only {len(self.choices)} decision(s) can be undone, not {n}")
        if n == 0:
            return
        p = self.params
        g = Game(self.bundle, p["ruleset"], p["factions"], p["seed"], p["layout"],
                 forced_dice=p.get("forced_dice"), independents=p.get("independents"))
        hook = getattr(self, "_event_hook", None)
        for c in self.choices[:len(self.choices) - n]:
            g.apply(c)
        # The same answers give the same events, except what the parameters cannot say again (why
        # Independents were left out): keep this game's own events where it has them.
        g.log = [mine if mine.get("type") != "restored" else new for mine, new in zip(self.log, g.log)] \
            + g.log[len(self.log):]
        # close the old rule generator while its attributes exist (its `finally` blocks use them)
        old = self.__dict__.get("_gen")
        if old is not None:
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
