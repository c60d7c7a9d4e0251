"""A learned evaluation: each seat's value of a position, from a model trained on self-play games
of one content set (`necro train`, tools/train.py; the fitting is search/fitting.py).

The model is a conditional logit over the game's possible outcomes, one per seat and one for
"nobody wins" (humanity): seat p's utility is w . x_p (its standardised features,
search/features.py), nobody's is v . g (the game's features), and each outcome's chance is its
softmax over the outcomes. The same weights serve every seat, so the model knows no faction and
any player count fits it. A seat's value is then what `reward.values` gives a finished game: 0.9
x its chance of victory + 0.1 x its Doom over the top Doom.

The search asks `evaluate(position)` at its depth cap (search/agent.py, `eval=FILE`); the
position is a game as a player may see it (a seat's board or a determinized copy), and only
public facts are read. The file is JSON (never pickle: a file may come from anyone), holds the
content digest it was trained on (`Content.digest`), and is refused for any other content.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine.game import Game
from .features import FEATURES_VERSION, GAME_FEATURES, SEAT_FEATURES, game_features, seat_features
from .reward import WIN

__all__ = ["Evaluator", "Evaluation", "FORMAT", "load_evaluation", "MAX_FILE_BYTES"]

FORMAT = "necro-evaluation"
VERSION = FEATURES_VERSION   # the file's version is its features' (search/features.py)
MAX_FILE_BYTES = 1_000_000
MAX_WEIGHT = 1e6   # any weight beyond this is a damaged file, not a model


class Evaluator(Protocol):
    """What the search needs of an evaluation: each seat's value of a position, in [0, 1]."""

    def evaluate(self, position: Game) -> dict[str, float]:
        ...


@dataclass
class Evaluation:
    """A trained conditional-logit evaluation of positions for one content set."""

    digest: str                    # the content it was trained on (`Content.digest`)
    seat_weights: list[float]      # w, one per SEAT_FEATURES (on standardised features)
    game_weights: list[float]      # v, one per GAME_FEATURES (nobody's utility)
    mean: list[float]              # the seat features' means in training
    scale: list[float]             # and their standard deviations (1 where constant)
    info: dict[str, Any] = field(default_factory=dict)   # how it was trained and how well it fits
    source: str = ""               # the file it was read from (for messages)

    def outcome_chances(self, seats: dict[str, list[float]], game: list[float]) -> tuple[float, dict[str, float]]:
        """The chance that nobody wins, and each seat's chance of victory, from raw features."""
        util = {p: sum(w * (x - m) / s for w, x, m, s in zip(self.seat_weights, row, self.mean, self.scale))
                for p, row in seats.items()}
        nobody = sum(v * x for v, x in zip(self.game_weights, game))
        top = max(nobody, *util.values())
        e = {p: math.exp(u - top) for p, u in util.items()}
        e0 = math.exp(nobody - top)
        total = e0 + sum(e.values())
        return e0 / total, {p: x / total for p, x in e.items()}

    def evaluate(self, position: Game) -> dict[str, float]:
        """Each seat's value of `position`: 0.9 x its chance of victory + 0.1 x its Doom over the top Doom."""
        _, win = self.outcome_chances(seat_features(position), game_features(position))
        doom = position.s.doom
        top = max(max(doom.values()), 1)
        return {p: WIN * win[p] + (1 - WIN) * max(0, doom[p]) / top for p in win}

    def check_content(self, digest: str) -> None:
        """ValueError (one line) unless the evaluation was trained on content with this digest."""
        if digest != self.digest:
            raise ValueError(f"evaluation '{self.source}' was trained on other content (digest {self.digest}; "
                             f"this content's is {digest}): train one for it with `necro train`")

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "content_digest": self.digest,
                "seat_features": list(SEAT_FEATURES), "game_features": list(GAME_FEATURES),
                "seat_weights": self.seat_weights, "game_weights": self.game_weights,
                "mean": self.mean, "scale": self.scale, "info": self.info}

    def save(self, path: str) -> None:
        """Write the file whole or not at all (a temporary file beside it, renamed)."""
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(self.to_json(), fh, indent=1)
                fh.write("\n")
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)


def load_evaluation(path: str) -> Evaluation:
    """The evaluation in `path`; ValueError (one line naming the file) for anything else."""
    where = f"evaluation '{path}'"
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"{where}: cannot read it: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"{where}: larger than {MAX_FILE_BYTES:,} bytes; not an evaluation file")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{where}: not JSON ({exc})") from None
    except RecursionError:
        raise ValueError(f"{where}: nested too deeply; not an evaluation file") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{where}: not an evaluation file (written by `necro train`)")
    if data.get("version") != VERSION:
        raise ValueError(f"{where}: version {data.get('version')!r}; this necro reads version {VERSION}: train it again")
    if data.get("seat_features") != list(SEAT_FEATURES) or data.get("game_features") != list(GAME_FEATURES):
        raise ValueError(f"{where}: made for other features than this necro's: train it again")
    digest = data.get("content_digest")
    if not isinstance(digest, str) or not digest:
        raise ValueError(f"{where}: no content digest")
    n, k = len(SEAT_FEATURES), len(GAME_FEATURES)
    vec = {key: _numbers(data.get(key), size, key, where)
           for key, size in (("seat_weights", n), ("game_weights", k), ("mean", n), ("scale", n))}
    if any(s <= 0 for s in vec["scale"]):
        raise ValueError(f"{where}: 'scale' must be above 0")
    info = data.get("info")
    return Evaluation(digest, vec["seat_weights"], vec["game_weights"], vec["mean"], vec["scale"],
                      info if isinstance(info, dict) else {}, path)


def _numbers(xs: Any, size: int, key: str, where: str) -> list[float]:
    if not isinstance(xs, list) or len(xs) != size or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and abs(x) <= MAX_WEIGHT
            for x in xs):
        raise ValueError(f"{where}: '{key}' must be a list of {size} finite numbers")
    return [float(x) for x in xs]
