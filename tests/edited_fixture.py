"""A copy of the `trigger-loop` modder's fixture with text edits in its faction file, for tests
that need content a little different from it (issue 30's formula budgets and validation)."""
from __future__ import annotations

import shutil
from pathlib import Path

LOOP = Path(__file__).parent / "fixtures" / "trigger-loop"


def edited_loop(tmp: Path, edits: dict[str, str], count: int = -1) -> Path:
    """The fixture copied under `tmp` with each `old` text of `factions/ping.yaml` replaced by its
    `new` (the first `count` times; every time by default); each `old` must be there."""
    folder = tmp / "c"
    shutil.copytree(LOOP, folder)
    f = folder / "factions" / "ping.yaml"
    text = f.read_text()
    for old, new in edits.items():
        assert old in text, old
        text = text.replace(old, new, count)
    f.write_text(text)
    return folder
