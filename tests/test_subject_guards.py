"""A modifier's leading comparisons of a subject field with `me` or a literal are tested on the
subject record before its `when` runs (effects/subject_guards.py): exactly where `when` would be
false without raising, and checking mode confirms every rejection by running `when`."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.effects.parser import parse
from necronomicon.interpreter.diagnostics import Pos, Report
from necronomicon.interpreter.effects.compiler import CompileEnv, Compiler
from necronomicon.interpreter.effects.subject_guards import HELD, ME, OPEN, REJECTED, after_guards, guards_of, rejects, verdict
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
    monkeypatch.setattr(core, "verdict", lambda guards, subject, me: REJECTED)   # guards that reject everything
    with pytest.raises(AssertionError, match="subject guards .* rejected"):
        core.modified(g.rules, "unlimited-summon", False, monsters, "black-goat")
    monkeypatch.setattr(core, "verdict", lambda guards, subject, me: HELD)   # guards that hold for everything
    with pytest.raises(AssertionError, match="subject guards .* hold"):
        core.modified(g.rules, "unlimited-summon", False, {**monsters, "owner": "yellow-sign"}, "black-goat")


def test_a_verdict_is_rejected_held_or_open_as_the_guards_decide() -> None:
    g = _guards("subject.owner == me and subject.class == 'monster' and count(units(owner: me)) > 1")
    assert verdict(g, {"owner": "a", "class": "monster"}, "a") == HELD
    assert verdict(g, {"owner": "a", "class": "cultist"}, "a") == REJECTED
    assert verdict(g, {"owner": "b", "class": "monster"}, "a") == REJECTED
    assert verdict(g, {"owner": "a"}, "a") == OPEN             # `class` missing: `when` decides
    assert verdict(g, {"owner": "a", "class": "monster"}, None) == OPEN
    assert verdict(g, ["a"], "a") == OPEN


def _when(text: str) -> Any:
    r = Report()
    env = CompileEnv(r, lambda line, col: Pos("t", line, col), {}, {"me", "subject", "xs"})
    f = Compiler(env).expr(parse(text, start="expr_start"), env)  # type: ignore[arg-type]
    assert not r.items, r.items
    return f


class _Ctx:
    def __init__(self, me: str, subject: Any, xs: list[int]) -> None:
        self.me, self.subject, self.value, self.scopes, self.where = me, subject, None, [{"xs": xs}], ""

    def lookup(self, name: str, where: str) -> Any:
        return {"me": self.me, "subject": self.subject, **self.scopes[0]}[name]


@pytest.mark.parametrize("text", [
    "subject.player != me and subject.area != none and count(xs) > 0",
    "subject.player != me and (subject.area != none and count(xs) > 0)",
    "(subject.player != me and subject.area == 'arctic') and count(xs) > 1 and count(xs) < 4",
    "subject.player != me and subject.area == 'arctic'",
    "subject.player != me",
])
def test_after_the_guards_is_when_without_them_where_they_hold(text: str) -> None:
    when, guards = _when(text), _guards(text)
    rest = after_guards(when, len(guards))
    assert after_guards(when, len(guards)) is rest   # made once
    held = 0
    for subject in ({"player": "b", "area": "arctic"}, {"player": "b", "area": None}, {"player": "b", "area": "north"}):
        if verdict(guards, subject, "a") != HELD:
            continue
        held += 1
        for xs in ([], [1], [1, 2], [1, 2, 3, 4]):
            c = _Ctx("a", subject, xs)
            assert bool(rest(c)) == bool(when(c)), (text, subject, xs)
    assert held
