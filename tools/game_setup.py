"""A new game's setup as a person chooses it, for the terminal (`necro play` flags) and the web
board's new-game form alike: ruleset, player count, factions (some or all drawn at random),
seating order (as given or shuffled), map layout, first player and the Independent Great Old Ones.

The random draws come from a generator seeded by the game's seed (its own stream, so the game's
dice are the same whichever setup was drawn): the same seed and choices give the same game
everywhere. Names are checked here, each refusal one `GameError` line naming the value and what
it may be; the first player is checked against the factions' setup rules by the engine.
"""
from __future__ import annotations

from dataclasses import dataclass

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.diagnostics import did_you_mean
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.rng import Rng

__all__ = ["RANDOM", "SEATINGS", "Setup", "draw_factions", "layouts_for", "make_game", "seated", "setup_rng"]

RANDOM = "random"                    # a faction (or the first player) drawn by the seeded generator
SEATINGS = ("as-given", "random")    # the factions sit in the order given, or shuffled
_SETUP_SALT = 0x5E7A11   # the setup's draws: a stream of their own, apart from the game's dice


@dataclass(frozen=True)
class Setup:
    """What a person chose for a new game (None: the ruleset's default)."""

    ruleset: str
    factions: tuple[str, ...]           # in seating order; RANDOM entries are drawn
    seed: int = 1
    layout: str | None = None
    seating: str = "as-given"
    first: str | None = None            # a faction, RANDOM, or None (the rulebook's recommendation)
    independents: tuple[str, ...] | None = None


def setup_rng(seed: int) -> Rng:
    """The generator of a setup's random draws, from the game's seed."""
    return Rng(seed ^ _SETUP_SALT)


def layouts_for(content: Content, ruleset: str, players: int) -> list[str]:
    """The map layouts the content offers for this player count (the ruleset's own first)."""
    model = content.model
    own = model.rulesets[ruleset].get("map", {}).get(str(players))
    fits = [lay.id for lay in model.layouts.values()
            if not lay.incomplete and (not lay.players or players in lay.players)]
    return sorted(fits, key=lambda i: (i != own, i))


def draw_factions(content: Content, given: tuple[str, ...], rng: Rng) -> list[str]:
    """The factions with each RANDOM entry drawn, without repeats, from the playable factions not
    named (those of the loaded expansions included)."""
    model = content.model
    for f in given:
        if f != RANDOM and f not in model.factions:
            raise GameError(f"unknown faction '{f}'{did_you_mean(f, model.factions)}; or '{RANDOM}'")
    left = sorted(f for f, fac in model.factions.items() if f not in given
                  and not any(t.unknown for t in fac.units.values()))
    wanted = sum(1 for f in given if f == RANDOM)
    if wanted > len(left):
        raise GameError(f"{wanted} random factions asked for, but only {len(left)} are left to draw from")
    out: list[str] = []
    for f in given:
        if f == RANDOM:   # never one played with the figures of a faction already at the table
            fits = [x for x in left if model.sharing_figures([*out, *given, x]) is None]
            if not fits:
                raise GameError(f"{wanted} random factions asked for, but too few can sit with the others")
            f = fits[rng.below(len(fits))]
            left.remove(f)
        out.append(f)
    return out


def seated(content: Content, setup: Setup) -> tuple[list[str], list[str]]:
    """The factions as chosen (each RANDOM drawn; one per seat row of the form), and in the order
    they sit (shuffled with seating "random")."""
    if setup.seating not in SEATINGS:
        raise GameError(f"seating '{setup.seating}': one of {', '.join(SEATINGS)}")
    rng = setup_rng(setup.seed)
    rows = draw_factions(content, setup.factions, rng)
    factions = list(rows)
    if setup.seating == "random":
        for i in range(len(factions) - 1, 0, -1):   # Fisher-Yates, by the seeded generator
            j = rng.below(i + 1)
            factions[i], factions[j] = factions[j], factions[i]
    return rows, factions


def make_game(content: Content, setup: Setup) -> Game:
    """The game this setup describes (one GameError line for a value that does not fit)."""
    factions = seated(content, setup)[1]
    if setup.ruleset not in content.model.rulesets:
        raise GameError(f"unknown ruleset '{setup.ruleset}'{did_you_mean(setup.ruleset, content.model.rulesets)}")
    if setup.layout is not None and setup.layout not in content.model.layouts:   # (the engine says why a
        offered = layouts_for(content, setup.ruleset, len(factions))            # known one cannot be played)
        raise GameError(f"unknown map layout '{setup.layout}'; for {len(factions)} players: {', '.join(offered)}")
    first = setup.first
    if first is not None and first != RANDOM and first not in factions:
        raise GameError(f"first player '{first}' is not one of this game's factions ({', '.join(factions)}); "
                        f"or '{RANDOM}'")
    independents = list(setup.independents) if setup.independents is not None else None
    return Game(content, setup.ruleset, factions, setup.seed, setup.layout, independents=independents,
                first=first)
