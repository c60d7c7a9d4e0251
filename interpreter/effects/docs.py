"""Print the generated tables of docs/effect-language.md: primitives, windows and their events, actions.

    python -m necronomicon.interpreter.effects.docs            # every table, in the order the document has them
"""
from __future__ import annotations

from .signatures import REGISTRY


def table() -> str:
    """Every effect-language primitive."""
    rows = ["| primitive | sort | parameters (`?` optional) | returns | what it does |", "|---|---|---|---|---|"]
    for name in REGISTRY.names():
        p = REGISTRY.get(name)
        assert p is not None
        params = "…" if p.variadic else ", ".join(f"{x.name}{'' if x.required else '?'}: {x.type}" for x in p.params)
        rows.append(f"| `{name}` | {p.sort} | {params} | {p.returns} | {p.doc} |")
    return "\n".join(rows)


def windows_table() -> str:
    """Every window, when it opens and the fields its event carries (effects/windows.py)."""
    from .windows import WINDOW_EVENTS

    rows = ["| window | when | `event` fields |", "|---|---|---|"]
    for name, (when, fields) in WINDOW_EVENTS.items():
        shown = "no event" if fields is None else ", ".join(f"`{f}`" for f in fields) or "— (an empty event)"
        rows.append(f"| `{name}` | {when} | {shown} |")
    return "\n".join(rows)


def actions_table() -> str:
    """Every action name `event.action` (after-action) and `subject.action` (action-cost) can hold."""
    from .windows import ACTION_EVENTS, COST_ACTIONS, WINDOW_EVENTS

    base = ", ".join(f"`{f}`" for f in WINDOW_EVENTS["after-action"][1] or ())
    rows = ["| action | what it is | `after-action` event fields | `subject.action` of `action-cost` |",
            "|---|---|---|---|"]
    for name, (what, extra) in ACTION_EVENTS.items():
        fields = base + "".join(f", `{f}`" for f in extra)
        cost = "yes" if name in COST_ACTIONS else "—"
        rows.append(f"| `{name}` | {what} | {fields} | {cost} |")
    rows.append("| *an ability's id* | an `action` or `unlimited-action` ability | — | yes (`subject.action` "
                "is the ability's id) |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table(), windows_table(), actions_table(), sep="\n\n")
