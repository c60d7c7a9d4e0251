"""The State's index of its units (engine/state.py keeps one per State): by location, by owner, by
id, and by owner then location, each list in the order of `State.units`. Built from the units in one
pass, and kept in step by `State.moved` (a unit's move changes two lists of each location table)."""
from __future__ import annotations

from typing import Any

# units by location, by owner (lists in the order of State.units), by id, and by owner then
# location (lists in the order of State.units): what the queries read instead of scanning units
UnitIndex = tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]], dict[Any, dict[str, Any]],
                  dict[str, dict[str, list[dict[str, Any]]]]]


def moved_in(by_loc: dict[str, list[dict[str, Any]]], u: dict[str, Any], src: str) -> bool:
    """Move `u` in one location-to-units table from `src`'s list to its `loc`'s now, kept in the
    order of `units` by id (no list left empty); False if `src`'s list does not hold it."""
    here = by_loc.get(src)
    if here is None:
        return False
    for i, x in enumerate(here):
        if x is u:
            break
    else:
        return False
    if len(here) == 1:
        del by_loc[src]
    else:
        del here[i]
    dst = u["loc"]
    there = by_loc.get(dst)
    if there is None:
        by_loc[dst] = [u]
    else:   # where bisect.insort(there, u, key=itemgetter("id")) puts it (a list by id), found from the end
        uid = u["id"]
        i = len(there)
        while i > 0 and uid < there[i - 1]["id"]:
            i -= 1
        there.insert(i, u)
    return True


def build_index(units: list[dict[str, Any]]) -> UnitIndex:
    by_loc: dict[str, list[dict[str, Any]]] = {}
    by_owner: dict[str, list[dict[str, Any]]] = {}
    by_owner_loc: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for u in units:   # (typed by unit_index.pxd in the compiled core: each table's read a C call)
        loc = u["loc"]
        here = by_loc.get(loc)
        if here is None:
            by_loc[loc] = [u]
        else:
            here.append(u)
        owner = u["owner"]
        mine = by_owner.get(owner)
        if mine is None:
            by_owner[owner] = [u]
            places = by_owner_loc[owner] = {}
        else:
            mine.append(u)
            places = by_owner_loc[owner]
        there = places.get(loc)
        if there is None:
            places[loc] = [u]
        else:
            there.append(u)
    by_id: dict[Any, dict[str, Any]] = {u["id"]: u for u in units}
    if len(by_id) != len(units):   # a repeated id (a broken state): the first unit with it, as before
        by_id = {}
        for u in units:
            by_id.setdefault(u["id"], u)
    return by_loc, by_owner, by_id, by_owner_loc
