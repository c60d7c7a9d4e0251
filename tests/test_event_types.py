"""Events are typed per window: `event.<field>` must be carried by every event that can reach it.

Before this check, `event.area` in an `after-action` ability validated, and the first Move (whose
event has no area) ended the game with `no field 'area' here`.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.effects.windows import ACTION_EVENTS, WINDOW_EVENTS, action_fields, event_fields


def _rules(tmp_path: Path, window: str, condition: str | None = None, effect: str = "nothing") -> list[str]:
    """Load a ruleset with one ability in `window`; return its findings as rendered lines."""
    lines = ["kind: ruleset", "id: typed", "name: Typed", "extends: multiplayer", "players: [4]", "abilities:",
             "  - id: probe", "    name: Probe", "    text: a probe", f"    window: {window}", "    optional: false"]
    if condition is not None:
        lines.append(f"    condition: \"{condition}\"")
    lines.append(f"    effect: \"{effect}\"")
    (tmp_path / "typed.yaml").write_text("\n".join(lines) + "\n")
    report = load_content([tmp_path]).report
    return [d.render() for d in report.errors]


def test_event_area_after_any_action_is_refused_with_the_actions_that_carry_it(tmp_path: Path) -> None:
    errors = _rules(tmp_path, "after-action", "event.area != none")
    assert len(errors) == 1, errors
    line = errors[0]
    assert line.startswith(f"{tmp_path / 'typed.yaml'}:12:23: error: 'event.area' is not guaranteed in window 'after-action'")
    assert "only the actions 'ability', 'awaken', 'battle', 'capture', 'create-gate', 'extra-battle', 'recruit', 'summon'" in line
    assert line.endswith("[event-field]")


@pytest.mark.parametrize("condition,effect", [
    ("event.action == 'battle' and event.area != none", "nothing"),
    ("event.action in ['battle', 'capture'] and event.area != none", "nothing"),
    ("event.action == 'summon'", "place(event.unit, event.area)"),            # the condition narrows the effect
    ("event.player == me", "if event.action == 'recruit' { gain_power(me, count(units(area: event.area))) }"),
    ("event.action not in ['move', 'control-gate', 'abandon-gate', 'reveal-elder-signs', 'ability', 'requirement', "
     "'pass']", "gain_power(event.player, count(units(area: event.area)))"),
])
def test_a_test_of_event_action_makes_the_field_guaranteed(tmp_path: Path, condition: str, effect: str) -> None:
    def no_me(text: str) -> str:   # a ruleset rule has no 'me'
        return re.sub(r"\bme\b", "event.player", text)
    assert _rules(tmp_path, "after-action", no_me(condition), no_me(effect)) == []


@pytest.mark.parametrize("condition,effect,needle", [
    ("event.action == 'move' and event.area != none", "nothing", "window 'after-action' for action 'move'"),
    ("event.action == 'battle' or event.area != none", "nothing", "is not guaranteed"),
    ("event.player != none", "if event.action != 'move' { gain_power(event.player, count(units(area: event.area))) }",
     "is not guaranteed"),
    (None, "gain_power(event.player, 1)", "the event of window 'gather-power' has no field 'player'"),
])
def test_what_does_not_narrow_is_still_refused(tmp_path: Path, condition: str | None, effect: str, needle: str) -> None:
    window = "gather-power" if "gather" in needle else "after-action"
    errors = _rules(tmp_path, window, condition, effect)
    assert len(errors) == 1 and needle in errors[0], errors


def test_a_window_without_the_field_names_the_windows_that_have_it(tmp_path: Path) -> None:
    errors = _rules(tmp_path, "ritual", "event.dice > 2")
    assert len(errors) == 1
    assert "the event of window 'ritual' has no field 'dice'; windows whose event carries it: battle-roll" in errors[0]


def test_an_action_name_that_does_not_exist_gets_a_did_you_mean(tmp_path: Path) -> None:
    errors = _rules(tmp_path, "after-action", "event.action == 'moev'")
    assert len(errors) == 1
    assert "no action is called 'moev' (did you mean 'move'?)" in errors[0]


def test_windows_without_an_event_refuse_event(tmp_path: Path) -> None:
    errors = _rules(tmp_path, "action", "event.player == none")
    assert len(errors) == 1 and "'event' is not bound here: window 'action' has no event" in errors[0]


def test_the_declarations_cover_every_window_and_action() -> None:
    assert set(event_fields("after-action") or ()) <= set().union(*action_fields().values())
    assert {w for w, (_, f) in WINDOW_EVENTS.items() if f is None} == {"action", "unlimited-action", "static"}
    assert "move" in ACTION_EVENTS and "area" not in action_fields()["move"]
