"""Saved games: writing `Game.to_json` (with who sits in each seat) to a file, whole or not at all,
under a fresh name; reading one back with one clear message for a save the game refuses (reading
the file, with its size cap: engine/savefile.py)."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import Game, GameError

from .atomic_file import write_whole

MAX_SEAT_NAME = 200   # characters in an agent name kept in a save (schema/save.schema.json)


def save_data(game: Game, seats: dict[str, str] | None = None) -> dict[str, Any]:
    """What a save file holds: the game, and (when known) the agent in each seat."""
    data = game.to_json()
    if seats:
        data["seats"] = dict(seats)
    return data


def write_save(game: Game | None, path: str | Path, seats: dict[str, str] | None = None,
               exclusive: bool = False) -> Path:
    """Write the game to `path` whole or not at all (a temporary file in the same folder, fsynced,
    renamed: a full disk leaves no empty or partial save); OSError when it cannot be written, and
    with `exclusive` FileExistsError when `path` exists."""
    if game is None:
        raise OSError("there is no game to save")
    p = Path(path)
    write_whole(p, json.dumps(save_data(game, seats)) + "\n", exclusive=exclusive)
    return p


def save_to_new_file(game: Game, seats: dict[str, str] | None = None) -> Path:
    """Save the game under a new name in the current folder (the temporary folder when the current
    one cannot be written): `necro-save-seed<S>-decision<N>[-k].json`."""
    stem = f"necro-save-seed{game.params.get('seed')}-decision{len(game.choices)}"
    failure: OSError = OSError("no folder to write the save in")
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        for i in range(1, 1000):
            p = folder / (stem + ("" if i == 1 else f"-{i}") + ".json")
            if p.exists():
                continue
            try:
                return write_save(game, p, seats, exclusive=True)
            except FileExistsError:
                continue
            except OSError as exc:
                failure = exc
                break
    raise failure


def saved_seats(data: dict[str, Any], factions: list[str], where: str) -> list[str] | None:
    """The agent of each seat (in seat order) that a save names, None when it names none; a seat
    missing or an unknown agent is one GameError line naming the JSON path."""
    from necronomicon.interpreter.bots import make_agent
    seats = data.get("seats")
    if seats is None:
        return None
    if not isinstance(seats, dict):
        raise GameError(f"{where}: seats: should be an object of faction -> agent, not {type(seats).__name__}")
    names = []
    for f in factions:
        name = seats.get(f)
        if not isinstance(name, str) or not name or len(name) > MAX_SEAT_NAME:
            raise GameError(f"{where}: seats.{f}: the save names no agent for this seat; give --agents")
        if name != "human":
            try:
                make_agent(name, 0)
            except (GameError, ValueError) as exc:
                raise GameError(f"{where}: seats.{f}: {exc}") from None
        names.append(name)
    return names


def load_saved_game(content: Content, path: str, data: dict[str, Any]) -> Game:
    """Game.from_json, with any refusal as one line naming the file."""
    try:
        return Game.from_json(content, data, where=path)   # a refusal names the file already
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise GameError(f"{path}: not a valid save ({type(exc).__name__}: {exc})") from None
