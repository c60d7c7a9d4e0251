"""Whether an action can be done in full, found by a dry run on a copy of the state.

Core rulebook, Unique Actions: "you cannot perform a Unique Action unless you are able to do all
parts of it". An effect's part is required when the effect cannot go on without it: a single
choice (`choose_unit`, `choose_area`, `choose_player`, ...) over an empty list gives `none`, and
an effect that then fails because of it could not be done. An effect that checks for `none`
itself (`if m != none { ... }`) marks that part as optional.

The dry run plays the effect on a copy (its own state, log, dice from the copy's generator),
answering each decision with an option in turn: it is feasible when some answers carry it to the
end. A search that stays undecided within its budget, or fails for another reason than a missing
part (a content error), counts as feasible: the action is offered and the real run reports it.
No dry run is needed when every single choice is proven (`may_lack_a_part`), or when one choice's
list, evaluated as the action is listed, decides it (`listed_answer`, effects/listed_choices.py).
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Callable

from ..effects.ast import LISTED, PAST_REMOVALS, PROVEN
from ..effects.compiler import RuleError
from ..effects.primitive_facts import NOTING_CHOICES, REMOVAL_WINDOW  # noqa: F401 (REMOVAL_WINDOW: read by tests)
from ..content.model import Requirement
from . import abilities, core, flow, state
from .abilities import self_unit_for
from .option import is_done

if TYPE_CHECKING:
    from .host import RulesContext

MAX_RUNS = 12     # dry runs per action (each tries another answer at the last open decision)
MAX_STEPS = 200   # decisions per dry run
MEMO_SIZE = 4096  # remembered results per game (and its clones) before the memo starts afresh

Run = Callable[["RulesContext"], "flow.Call"]   # starts the action's effect (a frame)
_ERRORS = (RuleError, KeyError, ValueError, TypeError, IndexError)


def note_no_option(game: Any, where: str) -> None:
    """A single choice had no option (called by the choice primitives; a no-op outside a dry run)."""
    notes = game._dry_run_notes
    if notes is not None:
        notes.append(where)


# the names whose list is never empty from this many players on ('enemies': everyone but me;
# PROVEN: a list the action's text proves not empty, or an optional choice: effects/guarded_choices.py)
NEVER_EMPTY = {"players": 1, "enemies": 2, PROVEN: 0}



def may_lack_a_part(effect: Any, players: int = 1, proofs: bool = True, quiet_removals: bool = False) -> bool:
    """Whether a compiled effect calls a single choice that may find its list empty (without one,
    no part can be missing): every single choice it makes picks among `players` or, with two
    players or more, `enemies`, unless the effect binds those names itself, or among a list the
    action's text proves not empty, or whose answer it treats as optional (PROVEN,
    effects/guarded_choices.py; `proofs=False` does not count those), or proves so past removals
    of units when those move no other unit (PAST_REMOVALS, `quiet_removals`: see
    `removals_are_quiet`)."""
    calls = getattr(effect, "calls", None)
    if calls is None:
        return True
    if not calls & NOTING_CHOICES:
        return False
    lists = getattr(effect, "choice_lists", None)
    if lists is None:
        return True
    past = 0 if proofs and quiet_removals else players + 1
    for name, var in lists:   # (a loop: a generator expression gives the function a closure scope)
        if name in NOTING_CHOICES and ((past if var == PAST_REMOVALS else NEVER_EMPTY.get(var or "", players + 1))
                                       > players or (var == PROVEN and not proofs)):
            return True
    return False


def listed_answer(game: Any, ab: Any, player: str, area: str | None, effect: Any,
                  dry_run: Callable[[], bool]) -> bool | None:
    """Whether `player` can do action `ab` (an ability, or a requirement's action, whose effect is
    `effect`; `area`: where it ends) in full, decided with no dry run by its listed choice
    (effects/listed_choices.py): its list, evaluated with the context the effect starts with, is
    not empty. None when that does not decide it: the effect has no listed choice the content lets
    the engine trust (content/tables.py `listed_programs`), another single choice of it is not
    proven (`may_lack_a_part`), or the list is no list or fails to evaluate. Checking mode
    (NECRO_CHECK_MEMO=1) compares every answer with the dry run's (`dry_run`)."""
    listed = effect.listed
    if effect.key not in game.content.tables.listed_programs:
        return None
    lists = effect.choice_lists
    if sum(1 for _, var in lists if var == LISTED) != 1 or may_lack_a_part(
            _Others(effect.calls, frozenset(c for c in lists if c[1] != LISTED)), len(game.s.players),
            quiet_removals=removals_are_quiet(game)):
        return None
    ctx = _start_ctx(game, ab, player, area)   # (the context a dry run's effect starts with)
    try:
        items = listed[0](ctx)
    except _ERRORS:
        return None
    if type(items) is not list:
        return None
    if state.CHECK_MEMO and bool(items) != dry_run():
        raise AssertionError(f"{ab.key if not isinstance(ab, Requirement) else ab.id}: its listed choice's list "
                             f"(effects/listed_choices.py) decided {bool(items)}, a dry run the opposite")
    return bool(items)


class _Others:
    """An effect's calls and its single choices but the listed one, for `may_lack_a_part`."""

    __slots__ = ("calls", "choice_lists")

    def __init__(self, calls: Any, choice_lists: frozenset[tuple[str, str | None]]) -> None:
        self.calls, self.choice_lists = calls, choice_lists


def removals_are_quiet(game: Any) -> bool:
    """Whether removing a unit (REMOVALS, effects/primitive_facts.py) moves no other unit in this
    game: every ability of the REMOVAL_WINDOW that the game's content holds (any faction's, card's,
    spellbook's or rule's, in play or not) calls only queries, choices and QUIET_VERBS. A fact of
    the content and ruleset, found as the content is built (content/tables.py)."""
    return game.content.tables.quiet_removals[game.ruleset.id]  # type: ignore[no-any-return]


def in_dry_run(game: Any) -> bool:
    """Whether this game is a dry run's copy (a dry run does not start another)."""
    return game._dry_run_notes is not None


def at_one_position(listing: Callable[[Any, Any, Any], Any], game: Any, player: Any, arg: Any) -> Any:
    """`listing(game, player, arg)` for a function listing actions, when the game remembers dry runs
    (`share_memo`): the position does not change while it runs, so its text (the dry runs' memo
    key) is made once for all the listing's dry runs. Without that memo there is no key to make
    (see `can_complete`), and a listing calls itself directly (actions.py: in the compiled core a
    wrapper's call cost more than most listings' own work)."""
    before = game._position_text
    game._position_text = []
    try:
        return listing(game, player, arg)
    finally:
        game._position_text = before


def can_complete(game: "RulesContext", key: str, run: Run) -> bool:
    """Whether some answers let `run(copy)` (the effect of action `key`) finish without a missing
    part. Results are remembered per position once the game has been cloned (`share_memo`): clones
    walk the same positions again (a search re-plays its tree from a copy of the root), while one
    line of play never lists the same position twice, so there the position text that keys the
    memo would cost more than it saves. A dry run is a function of the position: remembered or
    not, the answer is the same."""
    memo: dict[tuple[str, str], bool] | None = game._dry_run_memo   # type: ignore[attr-defined]
    if memo is None:
        return _search(game, run)
    made = game._position_text   # type: ignore[attr-defined]
    if made:
        text = made[0]
    else:
        text = game.s.to_text()
        if made is not None:
            made.append(text)
    memo_key = (key, hashlib.sha1(text.encode()).hexdigest())
    if memo_key in memo:
        return memo[memo_key]
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[memo_key] = result = _search(game, run)
    return result


def share_memo(game: Any) -> None:
    """Called before `game` is cloned: from now on it and its clones remember dry-run results in
    one shared memo (see `can_complete`)."""
    if game._dry_run_memo is None:
        game._dry_run_memo = {}


def _search(game: "RulesContext", run: Run) -> bool:
    game._dry_steps = 0   # every run of this search spends one evaluation budget (limits.MAX_STEPS)
    path: list[int] = []
    for _ in range(MAX_RUNS):
        done, trail = _attempt(game, run, path)
        if done is not False:
            return True
        while trail and trail[-1][0] + 1 >= trail[-1][1]:
            trail.pop()          # every option of this decision was tried: back up one
        if not trail:
            return False
        path = [i for i, _ in trail[:-1]] + [trail[-1][0] + 1]
    return True


def _copy(game: "RulesContext") -> Any:
    probe = game.twin()
    probe.s = game.s.copy()   # the game does not change during its dry runs
    probe._memo = game.memo_for_copy(probe.s)
    probe.log = []
    probe._forced_dice = None            # a scenario's scripted dice belong to the real game
    probe._event_hook = None
    probe._dry_run_notes = []
    probe._position_text = None
    probe._pending_obj = None
    probe.steps = game._dry_steps
    return probe


def _shortest_first(options: tuple[str, ...]) -> list[str]:
    """Options in the order a dry run tries them: stopping ('done') first, as it leaves the fewest
    further parts to do."""
    return sorted(options, key=lambda o: not is_done(o))


def _attempt(game: "RulesContext", run: Run, path: list[int]) -> tuple[bool | None, list[tuple[int, int]]]:
    """One dry run answering decision k with option path[k] (0 past the path): True when it ends,
    False when it failed after a choice had no option, None when undecided."""
    probe = _copy(game)
    trail: list[tuple[int, int]] = []
    # the action's frame runs on top of the frames open around it (their windows and abilities
    # count toward the trigger-loop limit) and the dry run ends when it returns
    floor = len(probe.s.flow)
    probe.s.flow.append(run(probe).frame)
    probe.s.pending = None
    try:
        flow.run(probe, floor=floor)
        for _ in range(MAX_STEPS):
            d = probe.s.pending
            if d is None:
                return True, trail
            k = len(trail)
            options = _shortest_first(tuple(d["options"]))
            i = min(path[k] if k < len(path) else 0, len(options) - 1)
            trail.append((i, len(options)))
            flow.run(probe, options[i], floor=floor)
        return None, trail
    except _ERRORS:
        return (False if probe._dry_run_notes else None), trail
    finally:
        game._dry_steps = probe.steps


def all_parts_possible(g: "RulesContext", ab: Any, p: str, area: str | None = None) -> bool:
    """Core rulebook, Unique Actions: "you cannot perform a Unique Action unless you are able to
    do all parts of it" - an action ability (or requirement action) is offered only when a dry
    run of its effect finds answers that leave no required choice without an option (`area`:
    the area an ability with `where:` ends in)."""
    effect = ab.action_effect if isinstance(ab, Requirement) else ab.effect
    if effect is None or in_dry_run(g):
        return True
    if not may_lack_a_part(effect, len(g.s.players), quiet_removals=removals_are_quiet(g)):
        if state.CHECK_MEMO and may_lack_a_part(effect, len(g.s.players), proofs=False) \
                and not _dry_run(g, ab, p, area, effect):
            raise AssertionError(f"{ab.key}: its condition was taken to prove that its choices have "
                                 "options (effects/guarded_choices.py), but a dry run found one without")
        return True
    if effect.listed is not None:   # decided by its listed choice's list: feasible.listed_answer
        decided = listed_answer(g, ab, p, area, effect, lambda: _dry_run(g, ab, p, area, effect))
        if decided is not None:
            return decided
    return _dry_run(g, ab, p, area, effect)


def _start_ctx(g: "RulesContext", ab: Any, p: str, area: str | None) -> Any:
    """The context `p`'s action `ab` (an ability, or a requirement's action; `area`: where it ends)
    starts its effect with: a dry run's and a listed choice's alike."""
    if isinstance(ab, Requirement):
        ctx = core.ctx(g, p)
        ctx.ability = f"requirement {ab.id}"
        return ctx
    return core.ctx(g, p, ability=ab, self_unit=self_unit_for(g, ab, p), area=area)


def _dry_run(g: "RulesContext", ab: Any, p: str, area: str | None, effect: Any) -> bool:
    requirement = isinstance(ab, Requirement)

    def run(probe: Any) -> "flow.Call":
        ctx = _start_ctx(probe, ab, p, area)
        if requirement:
            return core.effect_call(probe, effect, ctx)  # type: ignore[no-any-return]
        return core.use_ability_call(probe, ab, p, ctx, paid=True)  # type: ignore[no-any-return]
    key = f"{p} {'requirement ' + ab.id if requirement else ab.key}" + (f" {area}" if area is not None else "")
    return can_complete(g, key, run)


__all__ = ["all_parts_possible", "at_one_position", "can_complete", "in_dry_run", "listed_answer", "may_lack_a_part", "note_no_option",
           "removals_are_quiet", "share_memo"]
