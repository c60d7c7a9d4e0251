"""Every value a request brings, checked before the engine sees it: whole numbers within bounds,
lists of known names of bounded length, a seat map of known players. A value that does not fit is
one RequestRefused naming the field and what it holds (never a 500, never a half-made game)."""
from __future__ import annotations

from typing import Any, Iterable

from .guard import RequestRefused as _Refused

SEED_MAX = 2**63 - 1     # a seed must fit the save's 64-bit integer (schema/save.schema.json)
MAX_LIST = 64            # no list in a request is longer (factions, expansions, seats)
MAX_TEXT = 2_000         # no answer or name in a request is longer


def RequestRefused(message: str) -> _Refused:  # noqa: N802 - reads as the exception it makes
    """A refusal of a value that does not fit (code `bad-request`)."""
    return _Refused(message, 400, "bad-request")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def whole(value: Any, name: str, low: int, high: int) -> int:
    """`value` as a whole number in [low, high]: an int, or a string of digits (a form's field)."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value.strip()) <= 20:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestRefused(f"{name} must be a whole number, not {_shown(value)}")
    if not low <= value <= high:
        raise RequestRefused(f"{name} must be between {low:,} and {high:,}, not {_shown(value)}")
    return value


def text(value: Any, name: str) -> str:
    """A short string (an answer, a player, a seat)."""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise RequestRefused(f"{name} must be a string of at most {MAX_TEXT} characters, not {_shown(value)}")
    return value


def names(value: Any, name: str, known: Iterable[str] | None = None, most: int = MAX_LIST) -> list[str]:
    """A list of strings (each one of `known` when given), at most `most` long."""
    if not isinstance(value, list):
        raise RequestRefused(f"{name} must be a list of names, not {_shown(value)}")
    if len(value) > most:
        raise RequestRefused(f"{name} holds {len(value):,} entries; at most {most}")
    out = [text(v, f"{name}[{i}]") for i, v in enumerate(value)]
    allowed = None if known is None else set(known)
    if allowed is not None:
        for v in out:
            if v not in allowed:
                raise RequestRefused(f"{name}: no such name '{v[:60]}'; one of: {', '.join(sorted(allowed))}")
    return out


def mapping(value: Any, name: str, keys: Iterable[str]) -> dict[str, str]:
    """A map from some of `keys` to strings (a game's seats)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > MAX_LIST:
        raise RequestRefused(f"{name} must map players to seats, not {_shown(value)}")
    allowed = set(keys)
    out = {}
    for k, v in value.items():
        if k not in allowed:
            raise RequestRefused(f"{name}: '{str(k)[:60]}' is not a player of this game")
        out[k] = text(v, f"{name}.{k}")
    return out


def body_dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RequestRefused(f"the {what} must be a JSON object, not {_shown(value)}")
    return value
