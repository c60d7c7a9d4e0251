"""A modifier's leading comparisons of a subject field with `me` or a literal are tested on the
subject record before its `when` runs (effects/subject_guards.py): exactly where `when` would be
false without raising, and checking mode confirms every rejection by running `when`."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.effects.parser import parse
from necronomicon.interpreter.effects.subject_guards import ME, guards_of, rejects
from necronomicon.interpreter.engine import core, state as state_module
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game


def _guards(text: str) -> tuple[tuple[str, str, Any], ...]:
    return guards_of(parse(text, start="expr_start"))


def test_the_leading_comparisons_with_me_or_a_literal_are_the_guards() -> None:
    assert _guards("subject.owner == me and subject.class == 'monster'") == \
        (("owner", "==", ME), ("class", "==", "monster"))
    assert _guards("me == subject.player") == (("player", "==", ME),)
    assert _guards("subject.player != me and subject.area != none and count(areas()) > 0") == \
        (("player", "!=", ME),)                                  # `none` is not a guard's value: stop there
    assert _guards("count(areas()) > 0 and subject.owner == me") == ()   # only the leading ones
    assert _guards("subject.owner == me or subject.owner == 'x'") == ()
    assert _guards("subject.kind == 'cthulhu'") == ()            # read through a lent ability's stand-in
    assert _guards("subject.owner == first(enemies)") == ()


def test_a_guard_rejects_only_what_it_decides() -> None:
    g = (("owner", "==", ME), ("class", "==", "monster"))
    assert rejects(g, {"owner": "a", "class": "monster"}, "b")
    assert not rejects(g, {"owner": "a", "class": "monster"}, "a")
    assert rejects(g, {"owner": "a", "class": "cultist"}, "a")
    assert not rejects(g, {"class": "cultist"}, "a")          # the first field missing: `when` decides
    assert not rejects(g, {"owner": "b"}, None)               # no owner: `me` is unbound, `when` raises
    assert not rejects(g, ["not", "a", "record"], "a")
    assert rejects((("player", "!=", ME),), {"player": "a"}, "a")


def test_every_guarded_modifier_in_the_content_has_the_guards_of_its_text() -> None:
    c = load_content(expansions=["independents", "azathoth"]).require_ok()
    seen = 0
    for f in c.model.factions.values():
        abilities = [*f.abilities, *(a for t in f.units.values() for a in t.abilities),
                     *(a for sb in f.spellbooks.values() for a in sb.abilities)]
        for ab in abilities:
            for m in ab.modifiers:
                seen += bool(m.guards)
                assert all(field != "kind" for field, _, _ in m.guards)
    assert seen >= 10


def test_checking_mode_runs_when_for_every_rejection_and_catches_a_wrong_guard(monkeypatch: Any) -> None:
    c = load_content().require_ok()
    g = Game(c, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 3)
    agents = {p: RandomAgent(21 + i) for i, p in enumerate(g.s.players)}
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    for _ in range(150):   # rejections checked against `when` all along
        d = g.pending
        if d is None:
            break
        g.apply(agents[d.player].choose(d.player, d.options, d))
    monsters = {"kind": "ghoul", "class": "monster", "owner": "black-goat"}
    assert core.modified(g.rules, "unlimited-summon", False, monsters, "black-goat") is True   # the Black Goat's own
    assert core.modified(g.rules, "unlimited-summon", False, {**monsters, "owner": "yellow-sign"}, "yellow-sign") is False
    monkeypatch.setattr(core, "rejects", lambda guards, subject, me: True)   # guards that reject everything
    with pytest.raises(AssertionError, match="subject guards"):
        core.modified(g.rules, "unlimited-summon", False, monsters, "black-goat")
