"""The Move action's options: where a unit can go and which moves are affordable (an area's
surcharge is paid once per Move). Moving the units one by one is perform.py's MoveAction."""
from __future__ import annotations

from collections import deque
from typing import Any

from .core import GameCore
from .option import move_label

# per layout (by identity): area -> its neighbours, sorted, without itself (a range-1 move's destinations)
_NEIGHBOURS: dict[int, tuple[Any, dict[str, list[str]]]] = {}


def neighbours(layout: Any) -> dict[str, list[str]]:
    entry = _NEIGHBOURS.get(id(layout))
    if entry is None or entry[0] is not layout:
        table = {a: sorted(set(ns) - {a}) for a, ns in layout.adjacent.items()}
        entry = _NEIGHBOURS[id(layout)] = (layout, table)
    return entry[1]


class MovesMixin(GameCore):
    def reachable(self, p: str, u: dict[str, Any]) -> list[str]:
        if not self.may_act(u, "move"):
            return []
        rng = self.integer(self.modified("move-range", 1, u, p), "move range")
        start = u["loc"]
        if rng == 1:   # the areas next to it (an enemy in between matters only from range 2)
            return list(neighbours(self.layout).get(start, ()))
        through = bool(self.modified("move-through-enemies", False, u, p))
        seen = {start: 0}
        todo = deque([start])
        while todo:
            a = todo.popleft()
            d = seen[a]
            if d >= rng:
                continue
            if a != start and not through and any(x["owner"] != p for x in self.s.units_at(a)):
                continue  # cannot pass over an area holding enemy units
            for n in self.adjacent(a):
                if n not in seen:
                    seen[n] = d + 1
                    todo.append(n)
        return sorted(a for a in seen if a != start)

    def move_options(self, p: str, moved: set[int], charged: set[str], within: str | None = None) -> dict[str, int]:
        """The unit moves `p` can still make and afford in this Move (labels), with their costs: 1 Power each,
        plus an area's surcharge once per Move; `within` keeps only units leaving or entering that area."""
        opts: dict[str, int] = {}
        surcharge: dict[str, int] = {}   # an area's extra cost (the same for every unit entering it)
        power = self.s.power[p]
        for u in sorted(self.s.on_map(p), key=lambda x: x["id"]):
            if u["id"] in moved:
                continue
            for dst in self.reachable(p, u):
                if within is not None and within not in (u["loc"], dst):
                    continue
                if dst in charged:
                    extra = 0
                else:
                    extra = surcharge.get(dst, -1)
                    if extra < 0:
                        extra = surcharge[dst] = self.action_cost(p, "move", 0, dst)
                if 1 + extra <= power:
                    opts[move_label(u["kind"], u["loc"], dst, u["id"])] = 1 + extra
        return opts
