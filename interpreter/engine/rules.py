"""The rules context: what procedures, primitives and effects run over.

A `Rules` holds the content, the ruleset and map layout in play, the state, the event log, the
scripted dice, the evaluation budget and the one cache of facts derived from the position
(`memo`, see basics.py for its one invalidation rule). Procedures (engine/flow.py) and
primitives receive it; `game.Game` wraps one and is the API bots, front ends and tests drive.
"""
from __future__ import annotations

from typing import Any, Callable

from ..content.build import Content
from ..diagnostics import did_you_mean
from ..effects.compiler import RuleError
from ..content.model import ContentModel, Layout, Ruleset
from . import abilities, basics, core
from .core import modifiers_of
from . import battle, core_procs, doom, loyalty_procs, perform, round, turn  # noqa: F401 (their procedures register)
from . import independents as independents_module
from .basics import MEMO_CHECKED_AT_USE, MEMO_FACTS
from .decisions import GameError
from .rules_fields import RulesFields, memo_record
from .state import CHECK_MEMO, State


def _check_first(model: ContentModel, factions: list[str], asked: str | None) -> None:
    """Core rulebook, The First Player (p. 7): a faction that must go first does; one that may
    never be first at the start is not; otherwise any player may be chosen."""
    if asked is None or asked == round.RANDOM_FIRST:
        return
    if asked not in factions:
        raise GameError(f"first player '{asked}' is not one of this game's factions; one of: "
                        f"{', '.join(factions)} or {round.RANDOM_FIRST}")
    name = model.factions[asked].name
    always = [f for f in factions if model.factions[f].setup.get("always-first")]
    if always and asked not in always:
        raise GameError(f"{model.factions[always[0]].name} always goes first, so "
                        f"{name} cannot be the first player")
    if model.factions[asked].setup.get("never-first-at-start"):
        raise GameError(f"{name} may never be the first player at the start")


class Rules(RulesFields):
    """The rules of one game over its state (see the module docstring). The rules' functions
    (basics.py, core.py, abilities.py, actions.py, ...) take it as their first argument.

    Its fields are declared (`RulesFields.__slots__`): nothing else can be set on it. Facts
    derived from the position live in the one memo (`memo`), facts of the content alone in the
    content's tables (content/tables.py); the other fields are the game's inputs and the rules'
    working values.
    tests/test_rules_fields.py fails if a module sets an undeclared field."""

    __slots__ = ()   # its fields are RulesFields' (rules_fields.py: the compiled core reads them as C fields)

    bundle: Content
    content: ContentModel
    ruleset: Ruleset
    layout: Layout
    independents: list[str]
    first: str | None             # the game's `first` parameter (round.py Setup), None: the rulebook's recommendation
    s: State
    log: list[dict[str, Any]]

    @classmethod
    def blank(cls, content: Content, ruleset: str, layout: str, independents: list[str],
              log: list[dict[str, Any]] | None = None) -> "Rules":
        """A context for `content` with no state yet (the caller sets `s`); nothing is checked."""
        r = cls.__new__(cls)
        r.bundle = content
        r.content = content.model
        r.tables, r.factions = r.content.tables, r.content.factions
        r.unit_types, r.unit_classes = r.tables.unit_types, r.tables.unit_classes
        r.ruleset = r.content.rulesets[ruleset]
        r.layout = r.content.layouts[layout]
        r.independents = list(independents)
        r.first = None
        r._init_core()
        r.log = log if log is not None else []
        return r

    @classmethod
    def checked(cls, content: Content, ruleset: str, factions: list[str], layout: str | None,
                independents: list[str] | None, first: str | None = None) -> tuple["Rules", list[str]]:
        """A context for a new game, every parameter checked first (one GameError naming the
        offending one), and the notes on the loyalty cards left out. `first`: the first player at
        the start, a faction or "random" (`_check_first`)."""
        content.require_ok()
        model = content.model
        if ruleset not in model.rulesets:
            raise GameError(f"unknown ruleset '{ruleset}'; known: {', '.join(sorted(model.rulesets))}")
        rs = model.rulesets[ruleset]
        for f in factions:
            if f not in model.factions:
                raise GameError(f"unknown faction '{f}'{did_you_mean(f, model.factions)}")
        allowed = rs.get("players", [])
        if len(factions) not in allowed:
            raise GameError(f"ruleset '{ruleset}' is for {', '.join(map(str, allowed))} players, not {len(factions)}")
        if len(set(factions)) != len(factions):
            raise GameError("a faction can be played by only one player")
        layout = layout or rs.get("map", {}).get(str(len(factions)))
        if layout not in model.layouts:
            raise GameError(f"unknown map layout '{layout}'")
        lay = model.layouts[layout]
        if lay.players and len(factions) not in lay.players:
            raise GameError(f"map layout '{layout}' is for {', '.join(map(str, lay.players))} players, "
                            f"not {len(factions)}")
        if lay.incomplete:
            raise GameError(f"map layout '{layout}' cannot be played: it is incomplete ({lay.incomplete})")
        clash = model.sharing_figures(factions)
        if clash is not None:
            a, b = (model.factions[f].name for f in clash)
            raise GameError(f"{a} and {b} are played with the same figures: a game seats only one of them")
        for f in factions:
            for t in model.factions[f].units.values():
                if t.unknown:
                    raise GameError(f"faction '{f}': {t.name} has unknown {', '.join(t.unknown)}; "
                                    "a ruleset must name an interpretation before it can be played")
        _check_first(model, factions, first)
        r = cls.blank(content, ruleset, layout, [])
        r.first = first
        try:
            r.independents, left_out = independents_module.choose_independents(r, list(factions), independents)
        except RuleError as exc:
            raise GameError(str(exc)) from exc
        return r, left_out

    def copy(self, hook: Callable[[dict[str, Any]], None] | None = None) -> "Rules":
        """An independent context over a copy of the state, continuing exactly as this one would:
        the derived facts carry over, the log and scripted dice are copied, `hook` watches it."""
        r = self.twin()
        r._event_hook = hook
        r.s = self.s.copy()
        r._memo = self.memo_for_copy(r.s)
        r.log = list(self.log)
        r._forced_dice = list(self._forced_dice) if self._forced_dice is not None else None
        r._checking = False
        return r

    def twin(self) -> "Rules":
        """A context holding every field of this one as it is (the same state, log, memo, ...):
        `copy` and a dry run's copy (feasible.py) then replace what must differ."""
        r = Rules.__new__(Rules)   # field by field (a loop over __slots__ costs a clone 3%); the
        r.bundle, r.content, r.ruleset, r.layout = self.bundle, self.content, self.ruleset, self.layout
        r.tables, r.factions = self.tables, self.factions
        r.unit_types, r.unit_classes = self.unit_types, self.unit_classes
        r.independents, r.first, r.s, r.log = self.independents, self.first, self.s, self.log
        r._forced_dice, r._event_hook, r.steps = self._forced_dice, self._event_hook, self.steps
        r.formula_depth, r._memo, r._checking = self.formula_depth, self._memo, self._checking
        r._pending_obj, r._pending_of, r._dry_run_notes = self._pending_obj, self._pending_of, self._dry_run_notes
        r._dry_steps, r._dry_run_memo, r._position_text = self._dry_steps, self._dry_run_memo, self._position_text
        return r   # (tests/test_rules_fields.py checks that every declared field is copied)

    def _init_core(self) -> None:
        """The context's own counters and hooks, before any state."""
        self._memo: tuple[Any, ...] | None = None
        self._checking = False
        self._forced_dice: list[int] | None = None
        self._event_hook: Callable[[dict[str, Any]], None] | None = None
        self.steps = 0                # evaluation steps spent since the last decision (limits.MAX_STEPS)
        self.formula_depth = 0        # formulas being evaluated inside each other (limits.MAX_FORMULA_DEPTH)
        self._pending_obj: Any = None
        self._pending_of: dict[str, Any] | None = None
        self._dry_run_notes: list[str] | None = None
        self._dry_steps = 0
        self._dry_run_memo: dict[tuple[str, str], bool] | None = None
        self._position_text: list[str] | None = None

    def set_event_hook(self, hook: Callable[[dict[str, Any]], None] | None) -> None:
        """Call `hook(event)` after every logged event (checking mode); None switches it off."""
        self._event_hook = hook

    def memo_after_move(self) -> None:
        """A unit moved leaving which kinds each player has on the map as they were (`relocate`:
        from area to area, onto the map beside one of its kind, ...), the memo being current just
        before: the memo stays valid but
        for its facts about places (PLACE_FACTS), which are dropped. NECRO_CHECK_MEMO=1 checks
        the kept facts at their next use, as always."""
        core.memo_after_move(self)   # (core's shift calls it as a C function)

    def memo_for_copy(self, s: State) -> tuple[Any, ...]:
        """This position's memo for `s`, a fresh copy of the state: the facts are the same, and
        no condition is held yet (`held_conditions`)."""
        facts = dict(self.memo())
        return memo_record(s, facts, {})

    def memo_from(self, source: "Rules") -> None:
        """Start this context's memo with `source`'s facts at its position, this context's state
        being a masked state of that position (view.shared_state, a bot's reading): every fact
        is a function of the units, spellbooks, grants and cards, which a view shows, but for
        the entries the rule flow hands between steps (MEMO_CHECKED_AT_USE), which are left out
        (the flow is masked), and no condition is held yet (`held_conditions`: this state object's
        own). NECRO_CHECK_MEMO=1 checks the facts kept against this state's own. (The facts are
        copied whole and the flow's entries taken out by their keys, `(name, None)` each, not
        filtered one by one: a bot makes a reading at about every other decision.)"""
        s = self.s
        facts = dict(source.memo())
        for name in MEMO_CHECKED_AT_USE:
            facts.pop((name, None), None)
        if CHECK_MEMO and any(type(k) is tuple and k[0] in MEMO_CHECKED_AT_USE for k in facts):
            raise AssertionError("a memo entry the flow hands between steps is keyed (name, None)")
        self._memo = memo_record(s, facts, {})

    def state_written(self) -> None:
        """A write to units, spellbooks, grants or loyalty cards (see `memo`)."""
        self.s.written()

    def _check_memo(self, kept: dict[Any, Any]) -> None:
        old = self._memo
        assert old is not None
        s, shape = self.s, old[4]   # (None: the record was made out of checking mode)
        if shape is not None and (shape[0] is not s.grants or shape[1:] != (len(s.grants), len(s.units))):
            raise AssertionError("the grants or the units changed without a write noted (`State.written`)")
        self._memo = (*old[:2], {}, *old[3:])
        self._checking = True
        try:
            for key, value in list(kept.items()):
                if type(key) is tuple and key[0] in MEMO_CHECKED_AT_USE:
                    continue
                fresh = self._recompute(key)
                if fresh != value:
                    raise AssertionError(f"stale memo entry {key!r}: kept {value!r}, fresh {fresh!r}")
        finally:
            self._memo = old
            self._checking = False

    def _recompute(self, key: Any) -> Any:
        """A memo entry worked out afresh (checking mode: `_check_memo`)."""
        if key == "all":
            return abilities.active_abilities_all(self)
        if key == "modifiers":
            modifiers_of(self, "")
            return self.memo()["modifiers"]
        what, arg = key
        if what in MEMO_FACTS:
            return MEMO_FACTS[what](self, arg)
        return basics.in_play_kinds(self, arg) if what == "kinds" else abilities.active_abilities(self, arg)

    def __repr__(self) -> str:
        s = getattr(self, "s", None)   # (unset: an AttributeError in Python, None in the compiled core)
        return f"<Rules of {', '.join(s.players) if s is not None else 'no state'}>"


def new_state(r: Rules, ruleset: str, layout: str, factions: list[str], seed: int) -> State:
    """The state a new game starts from."""
    from .position import empty_state
    return empty_state(r.content, ruleset, layout, factions, seed, r.independents)
