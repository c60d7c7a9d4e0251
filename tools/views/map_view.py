"""`necro show map`: a map layout as a table of areas and neighbours, or drawn into a PNG.

The picture is drawn with matplotlib's Agg backend (no display needed): areas are labelled
nodes (oceans blue, land sand), adjacency is an edge, factions' start areas carry a coloured star
and a legend names them. Positions are the map's own (`position` in its YAML), else the deterministic layout in `layout.py`;
colours are the factions' content colours.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from rich.table import Table

from necronomicon.interpreter.content.model import ContentModel, Layout

from .colours import faction_colours
from .layout import area_positions, crosses_edge, drawn_size
from .lookup import ShowError, find

OCEAN, LAND, EDGE = "#a9cbe8", "#e9dcb0", "#8c8c8c"
OCEAN_EDGE, LAND_EDGE = "#2f6aa3", "#8a6d1f"


def pick_layout(model: ContentModel, name: str, layout: str | None = None) -> Layout:
    """The layout a name means: a layout id, or a map id (then --layout, else its recommended or first)."""
    maps = sorted({lay.map for lay in model.layouts.values()})
    if name in model.layouts and layout is None:
        return model.layouts[name]
    map_id = find("map", name, maps + sorted(model.layouts))
    if map_id in model.layouts:
        map_id = model.layouts[map_id].map
    options = sorted(lid for lid, lay in model.layouts.items() if lay.map == map_id)
    if layout is not None:
        if layout not in options:
            find(f"layout of map '{map_id}'", layout, options)
        return model.layouts[layout]
    chosen = next((lid for lid in options if model.layouts[lid].recommended), options[0])
    return model.layouts[chosen]


def map_list(model: ContentModel) -> Table:
    """Every layout of every map, with its player counts."""
    t = Table(title="Maps and layouts", title_justify="left", title_style="bold")
    for c in ("map", "layout", "name", "players", "areas", "note"):
        t.add_column(c, overflow="fold")
    for lid in sorted(model.layouts, key=lambda k: (model.layouts[k].map, k)):
        lay = model.layouts[lid]
        note = "recommended" if lay.recommended else (f"incomplete: {lay.incomplete}" if lay.incomplete else "")
        t.add_row(lay.map, lid, lay.name, ",".join(map(str, lay.players)), str(len(lay.areas)), note)
    return t


def map_table(model: ContentModel, layout: Layout, ids: bool = False) -> Table:
    """One row per area: terrain, glyph, whose start it is, its neighbours; areas and factions by
    their names (by id with `ids`, as files and scripts name them)."""
    t = Table(title=title(layout, ids), title_justify="left", title_style="bold")
    for c in ("area", "terrain", "starts", "adjacent"):
        t.add_column(c)
    area = (lambda a: a) if ids else (lambda a: layout.areas[a].name if a in layout.areas else a)
    sep = " " if ids else ", "
    for aid in sorted(layout.areas, key=lambda a: a if ids else layout.areas[a].name.casefold()):
        a = layout.areas[aid]
        terrain = ("ocean" if a.ocean else "land") + (f" ({a.glyph})" if a.glyph else "")
        t.add_row(area(aid), terrain, sep.join(a.starts if ids else (faction_name(model, f) for f in a.starts)),
                  sep.join(area(n) for n in layout.adjacent.get(aid, ())))
    return t


def faction_name(model: ContentModel | None, faction: str) -> str:
    """A faction's name, or its id for one this content does not load (a board's `starts:` may
    name a faction of an expansion left out)."""
    f = model.factions.get(faction) if model is not None else None
    return f.name if f is not None else faction


def title(layout: Layout, ids: bool = False) -> str:
    """'Name: N areas, M borders' (the layout's id after its name with `ids`), flagged when the
    layout is incomplete."""
    return (f"{layout.name}{f' ({layout.id})' if ids else ''}: {len(layout.areas)} areas, {edge_count(layout)} borders"
            + (" (incomplete, cannot be played)" if layout.incomplete else ""))


def edge_count(layout: Layout) -> int:
    """How many borders (unordered adjacent pairs) the layout has."""
    return len({tuple(sorted((a, b))) for a, ns in layout.adjacent.items() for b in ns})


def start_colours(layout: Layout, model: ContentModel | None = None) -> dict[str, str]:
    """A colour per faction that starts somewhere on the layout: its content colour, else a stable one."""
    factions = sorted({f for a in layout.areas.values() for f in a.starts})
    return faction_colours(model, factions)


def map_png(model: ContentModel, layout: Layout, out: Path) -> None:
    """Draw the layout into a PNG file."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    nodes = sorted(layout.areas)
    drawn = area_positions(layout)
    width = drawn_size(layout, drawn)[0]
    pos = {a: (x / width, 1.0 - y / width) for a, (x, y) in drawn.items()}  # the x span is 1; y grows north
    fig, ax = plt.subplots(figsize=(14, 9), dpi=100)
    for a, ns in layout.adjacent.items():
        for b in ns:
            if a < b:
                (xa, ya), (xb, yb) = pos[a], pos[b]
                if crosses_edge(layout, drawn, a, b):  # the border crosses the map's edge: a stub to each side
                    left, right = ((xa, ya), (xb, yb)) if xa < xb else ((xb, yb), (xa, ya))
                    mid = (left[1] + right[1]) / 2
                    ax.plot([left[0], -0.06], [left[1], mid], color=EDGE, lw=1.4, ls="--", zorder=1)
                    ax.plot([right[0], 1.06], [right[1], mid], color=EDGE, lw=1.4, ls="--", zorder=1)
                    continue
                ax.plot([xa, xb], [ya, yb], color=EDGE, lw=1.4, zorder=1)
    colours = start_colours(layout, model)
    for aid in nodes:
        area = layout.areas[aid]
        x, y = pos[aid]
        ax.scatter([x], [y], s=3000, zorder=2, c=OCEAN if area.ocean else LAND,
                   edgecolors=OCEAN_EDGE if area.ocean else LAND_EDGE, linewidths=1.8)
        label = "\n".join(textwrap.wrap(area.name, 11))
        ax.text(x, y, label, ha="center", va="center", fontsize=8.5, zorder=4, fontweight="bold")
        if area.glyph:
            ax.text(x, y - 0.045, area.glyph, ha="center", va="center", fontsize=7, style="italic",
                    color="#555555", zorder=4)
        for k, f in enumerate(area.starts):
            ax.scatter([x + 0.03 + 0.025 * k], [y + 0.045], marker="*", s=260, c=colours[f],
                       edgecolors="black", linewidths=0.6, zorder=5)
    handles = [Line2D([], [], marker="o", ls="", ms=13, mfc=OCEAN, mec=OCEAN_EDGE, label="ocean area"),
               Line2D([], [], marker="o", ls="", ms=13, mfc=LAND, mec=LAND_EDGE, label="land area" + (" (glyph in italics)" if any(a.glyph for a in layout.areas.values()) else "")),
               Line2D([], [], color=EDGE, lw=1.4, label="adjacent")]
    handles += [Line2D([], [], marker="*", ls="", ms=14, mfc=c, mec="black", label=f"start: {faction_name(model, f)}")
                for f, c in colours.items()]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9,
              borderaxespad=0)
    ax.set_title(title(layout), fontsize=12)
    ax.set_xlim(-0.08, 1.08)
    ys = [y for _, y in pos.values()]
    ax.set_ylim(min(ys) - 0.1, max(ys) + 0.1)
    ax.axis("off")
    fig.tight_layout()
    try:
        fig.savefig(out, format="png")
    except OSError as exc:
        raise ShowError(f"cannot write '{out}': {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
