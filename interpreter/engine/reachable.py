"""A loaded save is a position the rules reach: the one its own answers reach from its seed.

A save holds the game's parameters (ruleset, factions, seed, layout, scripted dice, Independents)
and every answer given since the game began (`choices`); all randomness comes from the seeded
generator in the state, so those answers from those parameters reach exactly one position. The
save's snapshot must be that position, field by field: the board and every number (Power, Doom,
the ritual track, the round), the rule flow's frames with the unit ids in their scopes, the pending
decision with its chooser and its options, the random generator, plus the log's length and the
scripted dice left. `check_reached` replays the answers on a fresh game and refuses the first
difference in one line naming its JSON path (`save: $.snapshot.pending.options[3]: ...`); an
answer that is not an option where the replay stands is refused naming it (`$.choices[12]`).

Why replay rather than a check of each field against the state: the pending decision was asked by
a step that has already moved on (a frame's `at` names the step that takes the answer), so its
options cannot be listed again from the frames alone, and a field-by-field check (scopes, chooser,
ranges) leaves every field it forgets forgeable. The replay lists every decision with the engine's
own listing, so nothing in a loaded save can differ from a position the rules reach. It costs
one more play of the answers (0.1-0.2 ms per answer on the Python engine). The numbers' ranges
are also checked before it (savefile.check_ranges), for a clearer line and for the loads below.

A position set up by hand (`Game(..., _state=...)`: tests, `necro scenario`) is reached by no
answers from a seed; its saves load only through `Game.from_json(..., check_by_replay=False)`,
which the web board and `necro play --resume` never use.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from .decisions import GameError, IllegalAction

#: how much of a value a refusal shows
_SHOWN = 60


def _shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _step(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if str(key).replace("-", "_").isidentifier() else f"{path}[{json.dumps(key)}]"


def first_difference(saved: Any, reached: Any, path: str = "$") -> tuple[str, str] | None:
    """The first place where `saved` and `reached` (plain JSON) differ, as (JSON path, what
    differs), or None when they are equal (as JSON texts: 1, 1.0 and true differ)."""
    if json.dumps(saved, sort_keys=True) == json.dumps(reached, sort_keys=True):
        return None
    return _difference(saved, reached, path)


def _difference(saved: Any, reached: Any, path: str) -> tuple[str, str] | None:
    """`first_difference` without its first comparison. A save's nesting is bounded
    (savefile.MAX_DEPTH), so the recursion is too."""
    if isinstance(saved, dict) and isinstance(reached, dict):
        for k in sorted(set(saved) | set(reached), key=str):
            if k not in reached:
                return _step(path, k), "the save has this entry; the position its answers reach has none"
            if k not in saved:
                return _step(path, k), f"missing from the save; the position its answers reach has {_shown(reached[k])}"
            found = _difference(saved[k], reached[k], _step(path, k))
            if found is not None:
                return found
        return None
    if isinstance(saved, list) and isinstance(reached, list):
        for i, (a, b) in enumerate(zip(saved, reached)):
            found = _difference(a, b, _step(path, i))
            if found is not None:
                return found
        if len(saved) != len(reached):
            return path, f"the save has {len(saved)} items; the position its answers reach has {len(reached)}"
        return None
    if type(saved) is type(reached) and saved == reached:   # strictly: 1, 1.0 and true differ
        return None
    return path, f"the save says {_shown(saved)}; the position its answers reach has {_shown(reached)}"


def plain(value: Any) -> Any:
    """`value` as JSON would carry it (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value))


def check_reached(new_game: Callable[[], Any], data: dict[str, Any], where: str,
                  error: type[GameError] = GameError) -> Any:
    """Replay `data["choices"]` on `new_game()` (a fresh game of the save's parameters) and compare
    the position reached with the save's snapshot, log length and scripted dice left. Returns the
    replayed game; raises `error` with one line naming the first JSON path that differs."""
    try:
        g = new_game()
    except GameError as exc:
        raise error(f"{where}: $.params: the game cannot be set up again: {' '.join(str(exc).split())[:200]}") from None
    choices = data["choices"]
    for i, answer in enumerate(choices):
        if g.pending is None:
            raise error(f"{where}: $.choices[{i}]: the game its answers play is over after {i} of {len(choices)} answers")
        try:
            g.apply(answer)
        except IllegalAction as exc:
            raise error(f"{where}: $.choices[{i}]: {_shown(answer)} is not an option where the game's answers "
                        f"stand ({' '.join(exc.message.split())[:200]})") from None
        except GameError as exc:
            raise error(f"{where}: $.choices[{i}]: {_shown(answer)} cannot be applied again "
                        f"({' '.join(str(exc).split())[:200]})") from None
        if g.choices[-1] != answer:
            raise error(f"{where}: $.choices[{i}]: {_shown(answer)} is not the full label of the option it names "
                        f"({_shown(g.choices[-1])})")
    reached = plain(g.to_json())
    found = None
    for key in ("snapshot", "dice", "log_length"):
        found = found or first_difference(plain(data.get(key)), reached[key], f"$.{key}")
    if found is not None:
        at, what = found
        raise error(f"{where}: {at}: {what} (a save must be the position its {len(choices)} answers reach "
                    f"from seed {g.params['seed']})")
    return g


__all__ = ["check_reached", "first_difference", "plain"]
