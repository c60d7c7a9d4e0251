"""`Game` is its API (#29): a plain class with few public names; the rules run over its context."""
from __future__ import annotations

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.rules import Rules


def _public(cls: type) -> set[str]:
    return {n for n in vars(cls) if not n.startswith("_")}


def test_game_inherits_nothing_but_object() -> None:
    assert Game.__bases__ == (object,)
    assert Game.__mro__ == (Game, object)


def test_game_has_at_most_thirty_public_names() -> None:
    names = _public(Game)
    assert len(names) <= 30, sorted(names)
    for api in ("current", "legal_actions", "apply", "why_illegal", "clone", "undo", "to_json", "from_json",
                "view", "is_over", "winner", "digest", "log_lines"):
        assert api in names


def test_a_game_holds_its_rules_context_and_a_clone_has_its_own(base_game: Content) -> None:
    g = Game(base_game, "duel", ["great-cthulhu", "crawling-chaos"], seed=3)
    assert isinstance(g.rules, Rules) and g.s is g.rules.s and g.log is g.rules.log
    c = g.clone()
    assert c.rules is not g.rules and c.s is not g.s and c.log is not g.log
    before = g.to_json()
    c.apply(c.legal_actions()[0])
    assert len(c.choices) == 1 and g.to_json() == before
