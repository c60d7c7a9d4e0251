"""The abilities of each timing window are found from one pass over a player's active abilities
(`abilities._by_window`, kept in the memo), and a window is quiet when no player has one there;
both give what a scan of the active abilities gives, at every position of seeded games."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.engine import abilities
from necronomicon.interpreter.limits import MAX_WINDOW_DEPTH
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.game import Game

GAMES = [("duel", ["sleeper", "wind-rider"], 3, RandomAgent),
         ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 5, RandomAgent),
         ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 6, HeuristicAgent)]


def _windows(builtin: Any) -> set[str]:
    """Every window an ability of the content is timed at."""
    return {ab.window for ab in builtin.model.tables.ability_by_key.values()} | {"no-such-window"}


def _scanned(g: Any, p: str, window: str) -> list[Any]:
    return [ab for ab in abilities.active_abilities(g, p) if ab.window == window]


@pytest.mark.parametrize("ruleset,factions,seed,agent", GAMES)
def test_each_windows_abilities_are_the_active_ones_timed_there(builtin: Any, ruleset: str, factions: list[str],
                                                                seed: int, agent: Any) -> None:
    g = Game(builtin, ruleset, factions, seed)
    bots = {p: agent(seed * 7 + i) for i, p in enumerate(factions)}
    windows = sorted(_windows(builtin))
    looked = 0
    for n in range(400):
        d = g.pending
        if d is None:
            break
        if n % 5 == 0:
            r = g.rules
            for p in factions:
                for w in windows:
                    assert list(abilities.window_abilities(r, p, w)) == _scanned(r, p, w), (n, p, w)
            for w in windows:
                # as quiet_window decided it before: no rule timed there, no player with an ability there
                timed = w in builtin.model.tables.timed_windows[ruleset]
                scanned_quiet = len(r.s.flow) < MAX_WINDOW_DEPTH and not timed \
                    and not any(_scanned(r, p, w) for p in factions)
                assert abilities.quiet_window(r, w) == scanned_quiet, (n, w)
            looked += 1
        g.apply(bots[d.player].choose(d.player, d.options, d))
    assert looked > 20


def test_a_window_nobody_has_an_ability_at_is_quiet_and_one_somebody_has_is_not(builtin: Any) -> None:
    factions = ["sleeper", "wind-rider"]
    g = Game(builtin, "duel", factions, 1)
    bot = RandomAgent(1)
    timed = builtin.model.tables.timed_windows["duel"]
    for _ in range(300):   # until a player's ability opens a window no rule or requirement is timed at
        r = g.rules
        live = {ab.window for p in factions for ab in abilities.active_abilities(r, p)}
        if live - timed and len(r.s.flow) < MAX_WINDOW_DEPTH:
            break
        d = g.pending
        assert d is not None
        g.apply(bot.choose(d.player, d.options, d))
    assert live - timed, "no window opened by a player's ability alone in 300 decisions"
    for w in live - timed:
        assert not abilities.quiet_window(r, w)
    assert abilities.quiet_window(r, "no-such-window")


def test_a_windows_ruleset_rules_are_those_timed_there_in_order(builtin: Any) -> None:
    """The rules a window's `rules` step looks at (`core_procs.rules_at`, found once per ruleset and
    window) are the ruleset's rules timed at that window, in the ruleset's order; none elsewhere."""
    from necronomicon.interpreter.engine import core_procs
    found = {}
    for ruleset in builtin.model.rulesets.values():
        rules = ruleset.abilities
        for window in _windows(builtin) | {ab.window for ab in rules}:
            at = found[ruleset.id, window] = core_procs.rules_at(rules, window)
            assert at == tuple(i for i, ab in enumerate(rules) if ab.window == window)
            assert core_procs.rules_at(rules, window) is at   # found once
    for ruleset in builtin.model.rulesets.values():   # another ruleset's asked between: still the ones found
        for window in _windows(builtin) | {ab.window for ab in ruleset.abilities}:
            assert core_procs.rules_at(ruleset.abilities, window) is found[ruleset.id, window]


def test_a_windows_rules_step_leaves_its_frame_as_a_scan_of_every_rule_did(builtin: Any) -> None:
    """After a window's `rules` step has found no usable rule, the frame records every rule as looked
    at (`rule` is their number), as the scan of all of them did; the players' step is next."""
    g = Game(builtin, "duel", ["sleeper", "wind-rider"], 3)
    from necronomicon.interpreter.engine import core_procs
    for window in ("unit-moved", "no-such-window"):
        f = {"proc": "window", "at": "rules", "window": window, "event": {}, "players": None, "area": None, "rule": 0}
        assert core_procs.Window().rules(g.rules, f, None) is None
        assert f["rule"] == len(g.rules.ruleset.abilities) > 0 and f["at"] == "player"


def test_the_timed_windows_kept_follow_the_ruleset_asked_about(builtin: Any) -> None:
    """`quiet_window` keeps the last ruleset's timed windows (`abilities._TIMED`): asked about games
    of two rulesets in turn, each answer is its own ruleset's (a window timed in one ruleset only)."""
    tables = builtin.model.tables
    duel = Game(builtin, "duel", ["sleeper", "wind-rider"], 1).rules
    multi = Game(builtin, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1).rules
    only = (tables.timed_windows["duel"] ^ tables.timed_windows["multiplayer"]) - _windows(builtin)
    assert only, "no window timed in one of the two rulesets only and opened by no ability"
    for _ in range(2):
        for r, ruleset in ((duel, "duel"), (multi, "multiplayer")):
            for w in only:
                assert abilities.quiet_window(r, w) == (w not in tables.timed_windows[ruleset]), (ruleset, w)
