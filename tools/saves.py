"""Saved games: writing `Game.to_json` to a file, choosing a fresh file name, reading one back with
one clear message for a save the game refuses (reading the file, with its size cap: engine/savefile.py)."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from interpreter.content.build import Content
from interpreter.engine.game import Game, GameError


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


def load_saved_game(content: Content, path: str, data: dict[str, Any]) -> Game:
    """Game.from_json, with any refusal as one line naming the file."""
    try:
        return Game.from_json(content, data, where=path)   # a refusal names the file already
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise GameError(f"{path}: not a valid save ({type(exc).__name__}: {exc})") from None
