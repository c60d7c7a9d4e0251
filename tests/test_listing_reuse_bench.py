"""benchmarks/listing_reuse.py: the tally sees every listing category, changes no game, and leaves
the engine as it found it (no timing is asserted)."""
from __future__ import annotations

from types import SimpleNamespace

from benchmarks import listing_reuse
from necronomicon.interpreter.engine import actions


def test_the_tally_counts_listings_without_changing_the_games() -> None:
    before = {name: vars(actions)[name] for name in listing_reuse.CATEGORIES}
    tally = listing_reuse.Tally()
    tallied, _ = listing_reuse.play("duel", 2, 2, 3, tally)
    plain, _ = listing_reuse.play("duel", 2, 2, 3, None)
    assert tallied == plain and tallied
    assert {name: vars(actions)[name] for name in listing_reuse.CATEGORIES} == before
    assert tally.calls["main (all)"] > 0 and tally.calls["unlimited (all)"] >= tally.calls["main (all)"]
    assert {"summon", "battle: battle", "abilities: action", "requirements"} <= set(tally.calls)
    for cat, n in tally.calls.items():
        assert 0 <= tally.repeats[cat] <= tally.seen_before[cat] <= n
        assert 0 <= tally.own_same[cat] <= n
    assert 0 < tally.best_ns <= sum(tally.time.values())
    text = listing_reuse.report(tally, len(tallied), 1)
    assert f"{len(tallied)} decisions" in text and "main (all)" in text


def test_a_repeat_is_the_same_players_same_list() -> None:
    tally = listing_reuse.Tally()

    class Fake:
        def __init__(self) -> None:
            self.__dict__["lists"] = {"a": [("move", 0)], "b": [("pass", 0)]}
            self.s = SimpleNamespace(other_writes=0, units=[], power={"a": 2, "b": 2}, moves_of=lambda p: 0)

    def listing(game: Fake, p: str) -> list[tuple[str, int]]:
        return list(game.lists[p])
    wrapped = tally._wrapped("main_actions", listing, listing_reuse.CATEGORIES["main_actions"])
    g = Fake()
    for p in ("a", "b", "a", "b", "a"):
        wrapped(g, p)
    g.lists["a"] = [("move", 1)]
    g.s.power["a"] = 1
    wrapped(g, "a")
    g.lists["a"] = [("move", 0)]
    wrapped(g, "a")
    assert tally.calls["main (all)"] == 7
    assert tally.repeats["main (all)"] == 3       # a, b, a equal to the player's previous list
    assert tally.seen_before["main (all)"] == 4   # ... and the last a, equal to an earlier one
    assert tally.own_same["main (all)"] == 4      # a's units and Power as before, but after its Power fell
    tally.new_game()
    wrapped(g, "a")
    assert tally.repeats["main (all)"] == 3 and tally.seen_before["main (all)"] == 4   # a new game
