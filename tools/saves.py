"""Saved games: writing `Game.to_json` to a file, choosing a fresh file name, reading one back with
one clear message for anything that is not a save."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from interpreter.content.build import Content
from interpreter.engine.game import Game, GameError

MAX_SAVE_BYTES = 64 * 1024 * 1024   # a save holds one snapshot and the answers: far below this


def write_save(game: Game | None, path: str | Path) -> Path:
    """Write the game (Game.to_json) to `path`; OSError when it cannot be written."""
    if game is None:
        raise OSError("there is no game to save")
    p = Path(path)
    p.write_text(json.dumps(game.to_json()) + "\n", encoding="utf-8")
    return p


def default_save_path(game: Game) -> Path:
    """A new file in the current folder (the temporary folder when that is not writable)."""
    stem = f"necro-save-seed{game.params.get('seed')}-decision{len(game.choices)}"
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        for i in range(1, 1000):
            p = folder / (stem + ("" if i == 1 else f"-{i}") + ".json")
            if not p.exists():
                try:
                    with p.open("x", encoding="utf-8"):
                        pass
                    return p
                except OSError:
                    break
    raise OSError("no folder to write the save in")


def read_save(path: str) -> dict[str, Any]:
    """The JSON of a save file, or one clear ValueError naming the file."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"{path}: no such save file")
    if p.stat().st_size > MAX_SAVE_BYTES:
        raise ValueError(f"{path}: {p.stat().st_size} bytes is too big for a save (at most {MAX_SAVE_BYTES})")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"{path}: not a save file (not JSON: {exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("params"), dict):
        raise ValueError(f"{path}: not a save file (no 'params' object; write one with `save FILE` in `necro play`)")
    return data


def load_saved_game(content: Content, path: str, data: dict[str, Any]) -> Game:
    """Game.from_json, with any refusal as one line naming the file."""
    try:
        return Game.from_json(content, data)
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise GameError(f"{path}: not a valid save ({type(exc).__name__}: {exc})") from None
