"""Effect programs run as frames (issue #13): at every decision of seeded games of every ruleset,
every effect frame is JSON, and reading
an effect frame back gives the same frame; effect frames are seen at decisions, so this runs."""
from __future__ import annotations

import json
import random

import pytest

from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.frame_values import decode, encode
from necronomicon.interpreter.engine.game import Game

from .figures import add
from .test_copies_property import CASES, FACTIONS, content
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine import core

GAMES = 2           # seeded games per case
DECISIONS = 250     # decisions per game at most


def _check(g: Game, seen: dict[str, int]) -> None:
    for f in g.s.flow:
        if f["proc"] == "effect":
            assert json.loads(json.dumps(f)) == f
            for key in ("ctx", "scopes", "iters", "wait"):
                assert encode(g.rules, decode(g.rules, f[key])) == f[key]
            seen["effect frames"] += 1
            if f is g.s.flow[-1]:
                seen["decisions asked by an effect"] += 1


@pytest.mark.parametrize("ruleset,players,expanded", CASES)
def test_effects_are_frames_at_every_decision(ruleset: str, players: int, expanded: bool) -> None:
    seen = {"decisions": 0, "effect frames": 0, "decisions asked by an effect": 0}
    r = random.Random(f"effects-{ruleset}-{players}-{expanded}")
    for _ in range(GAMES):
        seed = r.randrange(10_000)
        g = Game(content(expanded), ruleset, FACTIONS[ruleset, players], seed)
        agent = RandomAgent(seed)
        for _ in range(DECISIONS):
            d = g.current()
            if d is None:
                break
            _check(g, seen)
            seen["decisions"] += 1
            g.apply(agent.choose(d.player, d.options, d))
    add("effect frames at decisions", **seen)
    assert seen["decisions"] > 0


@pytest.mark.parametrize("expanded", [False, True])
def test_every_effect_program_is_found_by_its_key(expanded: bool) -> None:
    from types import MappingProxyType

    from necronomicon.interpreter.effects.program import Program

    g = Game(content(expanded), "multiplayer", FACTIONS["multiplayer", 3], 1)
    index = g.content.tables.programs   # a content table, found as the content is built
    assert isinstance(index, MappingProxyType) and "_programs" not in vars(g.content)
    effects = [ab.effect for f in g.content.factions.values() for ab in f.abilities if ab.effect is not None]
    assert effects and all(isinstance(e, Program) and index[e.key] is e for e in effects)
    assert len(index) == len({p.key for p in index.values()}) > len(effects)


def test_a_program_that_is_not_the_contents_is_refused_by_name() -> None:
    """An effect frame names its program by key; one the content's table does not hold (a program
    compiled elsewhere under the same key) could not be found again, so it is refused at once."""
    import copy

    from necronomicon.interpreter.effects.compiler import RuleError

    g = Game(content(False), "multiplayer", FACTIONS["multiplayer", 3], 1)
    p, ab = next((p, a) for p in g.s.players for a in basics.faction(g.rules, p).abilities if a.effect is not None)
    stranger = copy.copy(ab.effect)
    with pytest.raises(RuleError, match="is not one of the content's"):
        core.effect_call(g.rules, stranger, core.ctx(g.rules, p, ability=ab))


def test_an_effect_frame_running_an_ability_is_named_in_trigger_loop_messages() -> None:
    from necronomicon.interpreter.engine import flow

    g = Game(content(False), "multiplayer", FACTIONS["multiplayer", 3], 1)
    p, ab = next((p, a) for p in g.s.players for a in basics.faction(g.rules, p).abilities if a.effect is not None)
    call = core.effect_call(g.rules, ab.effect, core.ctx(g.rules, p, ability=ab), label=f"{ab.key} ({ab.window})")
    assert call.frame["proc"] == "effect" and call.frame["ctx"]["me"] == p
    g.s.flow.append(call.frame)
    assert flow.running_abilities(g.rules)[-1] == f"{ab.key} ({ab.window})"
