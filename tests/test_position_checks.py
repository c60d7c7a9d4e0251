"""A scenario's `position` names only things the game knows: a typo is an error, never ignored.

Before, `requirements: {sleeper: [awaken-tsathogua]}` or a token of an unknown type or owner was
copied into the state unchecked, so a scenario could pass while testing nothing.
"""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.tools.scenario import run_spec


@pytest.fixture(scope="module")
def content():  # noqa: ANN201
    return load_content(expansions="all").require_ok()


def _setup_failure(content: Any, position: dict[str, Any]) -> str:
    spec = {"ruleset": "duel", "factions": ["sleeper", "wind-rider"], "position": {"power": {"sleeper": 4}, **position}}
    out = run_spec(spec, content)
    assert out.failures, "the position was accepted"
    return out.failures[0]


@pytest.mark.parametrize("position,message", [
    ({"requirements": {"sleeper": ["awaken-tsathogua"]}},
     "requirements of sleeper: unknown requirement 'awaken-tsathogua' (did you mean 'awaken-tsathoggua'?)"),
    ({"requirements": {"crawling-chaos": []}}, "requirements: unknown faction (not playing) 'crawling-chaos'"),
    ({"tokens": [{"id": "dark-towr", "loc": "africa"}]}, "tokens[0]: unknown token 'dark-towr' (did you mean 'dark-tower'?)"),
    ({"tokens": [{"id": "dark-tower", "loc": "africa", "owner": "yellow-sign"}]},
     "tokens[0]: unknown owner (not playing) 'yellow-sign'"),
    ({"tokens": [{"id": "dark-tower", "loc": "afrika"}]}, "tokens[0]: unknown area 'afrika' (did you mean 'africa'?)"),
    ({"tokens": [{"id": "dark-tower", "area": "africa"}]}, "tokens[0]: unknown key 'area'"),
    ({"powr": {"sleeper": 3}}, "position: unknown key 'powr' (did you mean 'power'?)"),
    ({"doom": {"wind-ryder": 3}}, "doom: unknown faction (not playing) 'wind-ryder' (did you mean 'wind-rider'?)"),
    ({"spellbooks": {"sleeper": ["ancient-sorcery", "nope"]}}, "spellbooks of sleeper: unknown spellbook 'nope'"),
    ({"awakened": {"sleeper": ["tsathogua"]}}, "awakened of sleeper: unknown unit kind 'tsathogua' (did you mean 'tsathoggua'?)"),
    ({"gates": {"africa": "black-goat"}}, "gates: africa: unknown faction (not playing) 'black-goat'"),
    ({"elder-signs": {"sleeper": [4]}}, "elder-signs of sleeper: 4 is not an elder sign value (1, 2 or 3)"),
    ({"first": "sleepr"}, "first: unknown faction (not playing) 'sleepr' (did you mean 'sleeper'?)"),
])
def test_an_unknown_id_in_a_position_is_an_error(content: Any, position: dict[str, Any], message: str) -> None:
    failure = _setup_failure(content, position)
    assert failure == f"setup: PositionError: {message}", failure


def test_a_position_naming_only_known_things_still_builds(content: Any) -> None:
    spec = {"ruleset": "duel", "factions": ["sleeper", "wind-rider"], "script": [],
            "position": {"power": {"sleeper": 4}, "requirements": {"sleeper": ["awaken-tsathoggua"]},
                         "tokens": [{"id": "dark-tower", "loc": "africa"}, {"id": "ice-age", "loc": "asia",
                                                                              "owner": "wind-rider"}]}}
    out = run_spec(spec, content)
    assert out.ok, out.failures
    assert out.game is not None and out.game.s.requirements["sleeper"] == ["awaken-tsathoggua"]
