"""The memo's validity check is the state's write counter alone (`Rules.memo`): every write to what
its facts derive from (units, spellbooks, grants, loyalty cards) must bump `State.writes`, or the
memo serves a stale answer. Seeded games compare the memo's kept facts with facts worked out afresh
at every decision, over the write paths a game takes: moves, spellbooks, a lent ability (Ancient
Sorcery) and its end with the Doom Phase, loyalty cards and Independents."""
from __future__ import annotations

import random
import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import abilities
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.position import build_state

_LENDING = {"player": "sleeper", "first": "sleeper", "power": {"sleeper": 1, "wind-rider": 0},
            "spellbooks": {"sleeper": ["ancient-sorcery"]},
            "units": {"sleeper": {"europe": ["serpent-man"]}, "wind-rider": {"antarctica": ["acolyte"]}}}


def _lending_game(content: Content, power: int, seed: int) -> Game:
    pos = dict(_LENDING, power={"sleeper": power, "wind-rider": 0})
    state = build_state(content.model, "duel", "earth-3w3e", ["sleeper", "wind-rider"], seed, pos)
    return Game(content, "duel", ["sleeper", "wind-rider"], seed, "earth-3w3e", _state=state.to_dict())


def _fresh(g: Game) -> None:
    """The memo, if current, holds only facts equal to the ones worked out afresh (else AssertionError)."""
    r = g.rules
    if r.memo_current():
        r._check_memo(r.memo())


def _lent(g: Game) -> bool:
    return any(a.key == "wind-rider/hibernation" for a in abilities.active_abilities(g.rules, "sleeper"))


def test_a_lent_ability_ends_with_the_doom_phase(base_game: Content) -> None:
    g = _lending_game(base_game, 1, 1)
    g.apply("ability borrow")   # the Wind-Rider's Hibernation, lent until the end of the Doom Phase
    assert g.s.grants and _lent(g)
    while g.s.round == 1:
        _fresh(g)
        d = g.pending
        assert d is not None
        g.apply(d.options[0])
    assert not g.s.grants
    assert not _lent(g)   # worked out again: the grant's end is a write
    assert "ability hibernation" not in g.pending.options  # type: ignore[union-attr]
    _fresh(g)


def _play(g: Game, rng: random.Random, decisions: int) -> int:
    """Random answers, the memo compared with fresh facts before each; the writes seen."""
    start = g.s.writes
    for _ in range(decisions):
        d = g.pending
        if d is None:
            break
        _fresh(g)
        abilities.active_abilities_all(g.rules)   # (a fact kept for the next decision's comparison)
        for p in g.s.players:
            abilities.active_abilities(g.rules, p)
        g.apply(rng.choice(d.options))
    _fresh(g)
    return g.s.writes - start


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_with_lending_keep_no_stale_fact(base_game: Content, seed: int) -> None:
    g = _lending_game(base_game, 6, seed)
    rng = random.Random(seed)
    assert _play(g, rng, 150) > 0


@pytest.mark.parametrize("ruleset,factions,fixture", [
    ("duel", ["sleeper", "wind-rider"], "base_game"),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], "base_game"),
    ("multiplayer", ["sleeper", "wind-rider", "great-cthulhu"], "builtin"),   # Independents, Azathoth
])
def test_random_games_keep_no_stale_fact(request: pytest.FixtureRequest, ruleset: str, factions: list[str],
                                         fixture: str) -> None:
    g = Game(request.getfixturevalue(fixture), ruleset, factions, 5)
    assert _play(g, random.Random(5), 250) > 0
