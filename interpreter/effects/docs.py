"""Print the table of every effect-language primitive (for docs/effect-language.md).

    python -m interpreter.effects.docs
"""
from __future__ import annotations

from .registry import REGISTRY


def table() -> str:
    from ..engine import library  # noqa: F401  registers the primitives

    rows = ["| primitive | sort | parameters (`?` optional) | returns | what it does |", "|---|---|---|---|---|"]
    for name in REGISTRY.names():
        p = REGISTRY.get(name)
        assert p is not None
        params = "…" if p.variadic else ", ".join(f"{x.name}{'' if x.required else '?'}: {x.type}" for x in p.params)
        rows.append(f"| `{name}` | {p.sort} | {params} | {p.returns} | {p.doc} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
