"""The battle panel a browser draws while a battle is on, from a player's view only.

The state's battle record (`view["state"]["battle"]`: results assigned, results left to assign,
dice rolled, units killed) and the view's `battle` (each side's units with their combat, the
dice's faces) are dressed with content names and faction colours; who is choosing now comes from
the pending decision in words. Nothing is read from the full state.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from necronomicon.interpreter.content.model import ContentModel
from necronomicon.tools.views.colours import faction_colours
from necronomicon.tools.words import Words

RESULTS = ("eliminate", "kill", "pain")   # the order results are assigned and shown in


def battle_json(model: ContentModel, view: dict[str, Any], words: Words, unit_names: dict[int, tuple[str, str]],
                question: str | None) -> dict[str, Any] | None:
    """The battle under way for the board (None when there is none). `unit_names`: each unit id's
    (name, class); `question`: the pending decision in words, shown as who is choosing what."""
    record, seen = view["state"].get("battle"), view.get("battle")
    if not record or not seen:
        return None
    colours = faction_colours(model, view["state"]["players"])
    sides = []
    for role in ("attacker", "defender"):
        p = record[role]
        side = seen["sides"][p]
        rolled = record["rolled"].get(p)
        left = Counter(item["result"] for item in record["pending"].get(p, []))
        sides.append({
            "player": p, "name": words.name(p), "colour": colours[p], "role": role, "combat": side["combat"],
            "units": [_unit(u, record, unit_names) for u in side["units"]],
            "killed": [unit_names.get(i, (str(i), ""))[0] for i in record["killed"].get(p, [])],
            "dice": rolled["dice"] if rolled else None, "faces": side["faces"],
            "kills": rolled["kills"] if rolled else None, "pains": rolled["pains"] if rolled else None,
            "left": [{"result": r, "count": left[r]} for r in RESULTS if left[r]]})
    pending = view.get("pending")
    asking = None
    if pending is not None and question is not None:
        asking = {"player": pending["player"], "name": words.name(pending["player"]), "question": question}
    return {"area": record["area"], "area_name": words.name(record["area"]), "sides": sides, "asking": asking}


def _unit(u: dict[str, Any], record: dict[str, Any], unit_names: dict[int, tuple[str, str]]) -> dict[str, Any]:
    name, cls = unit_names.get(u["id"], (str(u["id"]), ""))
    return {"id": u["id"], "name": name, "great_old_one": cls == "great-old-one", "combat": u["combat"],
            "results": list(record["results"].get(str(u["id"]), []))}
