"""What the command line checks before any game is played: the ruleset, the seats, the output files."""
from __future__ import annotations

from pathlib import Path

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.diagnostics import did_you_mean
from necronomicon.interpreter.engine.decisions import GameError

SEED_RANGE = (-(2**63), 2**63 - 1)  # a seed a save or log can hold (schema/save.schema.json)


def pick_ruleset(content: Content, name: str | None) -> str:
    """The named ruleset (an unknown name lists the known ones), else the content's default."""
    rulesets = content.model.rulesets
    if name:
        if name not in rulesets:
            raise GameError(f"unknown ruleset '{name}'{did_you_mean(name, rulesets)}; "
                            f"known: {', '.join(sorted(rulesets))}")
        return name
    defaults = [r.id for r in rulesets.values() if r.get("default")]
    if not defaults:
        raise GameError("no ruleset is marked default; name one with --ruleset")
    return defaults[0]


def player_count(content: Content, ruleset: str, players: int | None) -> int:
    """`--players`, checked against the ruleset (default: the count nearest 4 it allows)."""
    allowed = content.model.rulesets[ruleset].get("players", [2])
    if players is None:
        return min(allowed, key=lambda k: abs(k - 4))
    if players not in allowed:
        raise GameError(f"--players {players}: ruleset '{ruleset}' is for {', '.join(map(str, allowed))} players")
    return players


def pick_factions(content: Content, ruleset: str, players: int | None, factions: str | None) -> list[str]:
    """`--factions` (a comma list, checked by name first; `random` entries are drawn later, by
    tools/game_setup.py), else the ruleset's default seats."""
    if factions is not None:
        names = [f.strip() for f in factions.split(",") if f.strip()]
        if not names:
            raise GameError("--factions names no faction")
        for f in names:
            if f not in content.model.factions and f != "random":   # drawn by tools/game_setup.py
                raise GameError(f"unknown faction '{f}'{did_you_mean(f, content.model.factions)}")
        if players is not None and players != len(names):
            raise GameError(f"--players {players} but --factions names {len(names)}")
        return names
    n = player_count(content, ruleset, players)
    chosen = content.model.rulesets[ruleset].get("default-factions", {}).get(str(n))
    if chosen:
        return list(chosen)
    pool = sorted(f for f, fac in content.model.factions.items() if fac.expansion is None)
    if len(pool) < n:
        raise GameError(f"only {len(pool)} factions are available for {n} players")
    return pool[:n]


def check_seed(seed: int, flag: str = "--seed") -> None:
    """A seed must fit in 64 bits, so that the game's save and log can be loaded again."""
    if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise GameError(f"{flag} must be a 64-bit whole number ({SEED_RANGE[0]} to {SEED_RANGE[1]})")


def check_destination(path: str, flag: str) -> None:
    """Refuse, before any work, an output file that could not be written: a folder, a missing
    folder, a file or folder without write permission (tried by opening the file to append, which
    changes nothing; a file made by the try is removed). A disk that fills up is only found when
    writing; that is reported as one line too."""
    p = Path(path)
    if p.is_dir():
        raise OSError(f"{flag} '{path}' is a folder; name a file")
    folder = p.resolve().parent
    if not folder.is_dir():
        raise OSError(f"{flag} '{path}': there is no folder '{folder}'")
    existed = p.exists()
    try:
        with open(p, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise OSError(f"{flag} '{path}': cannot write there: {exc.strerror or exc}") from None
    if not existed:
        p.unlink(missing_ok=True)


__all__ = ["SEED_RANGE", "check_destination", "check_seed", "pick_factions", "pick_ruleset", "player_count"]
