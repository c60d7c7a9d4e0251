"""How well does a learned evaluation predict the outcome of other games? (issue 33)

Reads the positions file of a `necro train` run (`OUT-STEM.positions.jsonl`: every game's noted
positions and its outcome) and, for each evaluation given, prints the mean log loss of its
outcome chances (each seat's victory, or nobody's) over those positions, beside the log loss of
the outcome frequencies of the file's own games (a model that knows the base rates and nothing
else) and of an even split; also how often its likeliest outcome came true, and the log loss by
quarter of the game's lateness. Use it on games the evaluation was not trained on: an evaluation
fitted to heuristic games, read on positions of search-bot games, says whether the play it learned
from matters.

    python -m benchmarks.eval_fit --positions search.positions.jsonl heuristic-eval.json search-eval.json
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from necronomicon.interpreter.search.evaluation import load_evaluation  # noqa: E402
from necronomicon.interpreter.search.fitting import Sample  # noqa: E402
from necronomicon.tools.train_positions import samples_of_row  # noqa: E402

LATENESS = 1   # the game feature holding lateness (search/features.py GAME_FEATURES)

__all__ = ["log_losses", "main"]


def _rows(path: str) -> list[Sample]:
    out: list[Sample] = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                row = json.loads(line)
                if not isinstance(row, dict):
                    raise TypeError("not an object")
                out.extend(samples_of_row(row))
            except (ValueError, KeyError, TypeError, RecursionError) as exc:
                raise SystemExit(f"eval_fit: {path}:{n}: not a training game's line ({exc})") from None
    return out


def _loss(chances: list[float], shares: tuple[float, ...]) -> float:
    return -sum(t * math.log(max(p, 1e-12)) for p, t in zip(chances, shares) if t)


def log_losses(samples: list[Sample], chances_of: dict[str, object]) -> dict[str, dict[str, object]]:
    """Per predictor name: mean log loss, likeliest outcome right, log loss by lateness quarter.
    A predictor is a function (sample) -> outcome chances (nobody first, then seats)."""
    figures: dict[str, dict[str, object]] = {}
    for name, predict in chances_of.items():
        total, right, quarters, counts = 0.0, 0, [0.0] * 4, [0] * 4
        for s in samples:
            p = predict(s)  # type: ignore[operator]
            loss = _loss(p, s.shares)
            total += loss
            right += s.shares[max(range(len(p)), key=p.__getitem__)] > 0
            q = min(int(s.globals[LATENESS] * 4), 3)
            quarters[q] += loss
            counts[q] += 1
        n = max(len(samples), 1)
        figures[name] = {"log_loss": total / n, "right": right / n,
                         "by_quarter": [a / c if c else None for a, c in zip(quarters, counts)], "counts": counts}
    return figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", required=True, help="a positions file written by necro train")
    ap.add_argument("evaluations", nargs="*", help="evaluation files (necro train --out)")
    a = ap.parse_args(argv)
    samples = _rows(a.positions)
    if not samples:
        raise SystemExit(f"eval_fit: {a.positions}: no positions")
    width = len(samples[0].shares)
    freq = [sum(s.shares[i] for s in samples) / len(samples) for i in range(width)]
    predictors: dict[str, object] = {"even split": lambda s: [1 / len(s.shares)] * len(s.shares),
                                     "outcome frequencies": lambda s: freq[:len(s.shares)]}
    for path in a.evaluations:
        try:
            model = load_evaluation(path)
        except ValueError as exc:
            raise SystemExit(f"eval_fit: {exc}") from None

        def predict(s: Sample, model=model) -> list[float]:  # noqa: ANN001 - bound per file
            nobody, win = model.outcome_chances({str(i): list(r) for i, r in enumerate(s.seats)}, list(s.globals))
            return [nobody, *(win[str(i)] for i in range(len(s.seats)))]
        predictors[path] = predict
    games = len({s.game for s in samples})
    print(f"{len(samples):,} positions of {games} games in {a.positions}")
    for name, f in log_losses(samples, predictors).items():
        quarters = " ".join("-" if x is None else f"{x:.3f}" for x in f["by_quarter"])  # type: ignore[union-attr]
        print(f"  {name}: log loss {f['log_loss']:.3f}, likeliest outcome right {100 * f['right']:.1f}%"  # type: ignore[operator]
              f"; by lateness quarter {quarters}")
    print(f"  positions by lateness quarter: {f['counts']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
