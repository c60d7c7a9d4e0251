"""Maps draw themselves from content: area positions and outlines, a drawing box that may wrap, and
a computed layout for a map without positions; faction colours are content too."""
from __future__ import annotations

from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.tools.views.colours import faction_colours
from necronomicon.tools.views.layout import area_positions, crosses_edge
from necronomicon.tools.web.board import map_json

ROOT = Path(__file__).parent.parent
BASIC = ROOT / "tests" / "fixtures" / "basic"

DRAWN = """kind: map
id: ring
name: Ring
drawing: {width: 100, height: 50, wrap: true}
parts:
  all:
    areas:
      - {id: west, name: West, terrain: land, position: [5, 25], shape: [[0, 15], [10, 15], [10, 35], [0, 35]]}
      - {id: middle, name: Middle, terrain: ocean, position: [50, 25]}
      - {id: east, name: East, terrain: land, position: [95, 25]}
    adjacent:
      west: [middle, east]
      middle: [west, east]
      east: [west, middle]
layouts:
  - {id: ring, parts: [all], players: [2, 3]}
"""


def test_a_map_without_positions_is_laid_out_from_its_adjacency() -> None:
    c = load_content([BASIC], builtin=False).require_ok()
    lay = c.model.layouts["testland"]
    pos = area_positions(lay)
    assert set(pos) == set(lay.areas) and all(0 <= x <= 1 and 0 <= y <= 1 for x, y in pos.values())
    m = map_json(lay)
    assert not any(w for _, _, w in m["edges"]) and "shape" not in m["areas"][0]


def test_positions_outlines_and_a_wrapping_border(tmp_path: Path) -> None:
    (tmp_path / "ring.yaml").write_text(DRAWN)
    c = load_content([tmp_path]).require_ok()
    lay = c.model.layouts["ring"]
    pos = area_positions(lay)
    assert pos["west"] == (0.05, 0.25) and pos["east"] == (0.95, 0.25)
    assert crosses_edge(lay, pos, "west", "east") and not crosses_edge(lay, pos, "west", "middle")
    m = map_json(lay)
    assert (m["width"], m["height"]) == (1.0, 0.5)
    west = next(a for a in m["areas"] if a["id"] == "west")
    assert west["shape"][0] == pytest.approx([0.0, 0.15]) and west["shape"][2] == pytest.approx([0.1, 0.35])


def test_a_bad_position_is_a_finding_with_its_place(tmp_path: Path) -> None:
    (tmp_path / "ring.yaml").write_text(DRAWN.replace("position: [50, 25]", "position: [50]"))
    c = load_content([tmp_path])
    assert not c.ok
    assert any("ring.yaml" in d.path and d.line == 9 and "too short" in d.message for d in c.report.errors)


def test_faction_colours_are_content_with_a_fallback_for_a_faction_without_one() -> None:
    model = load_content().require_ok().model
    colours = faction_colours(model, ["great-cthulhu", "crawling-chaos", "no-such-faction"])
    assert colours["great-cthulhu"] == "#2e8b57" and colours["crawling-chaos"] == "#2f62c8"
    assert colours["no-such-faction"].startswith("#")
    assert all(f.colour for f in model.factions.values())
