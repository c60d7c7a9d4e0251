"""interpreter/ and tools/ name no faction, unit, spellbook, ability or map area from content/."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).parent.parent
GENERIC = {"acolyte", "cultist", "monster", "great-old-one", "gate", "move", "battle", "capture", "recruit",
           "summon", "awaken", "pass", "doom", "power", "ritual", "ocean", "land", "default", "multiplayer",
           "two-player", "duel", "control-gate", "abandon-gate", "create-gate", "extra-battle", "all", "known"}


def content_names() -> set[str]:
    names: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("id", "name") and isinstance(v, str):
                    names.add(v.lower())
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    for p in (ROOT / "content").rglob("*.yaml"):
        walk(yaml.safe_load(p.read_text()))
    return {n for n in names if len(n) >= 5 and n not in GENERIC}


def test_engine_code_names_no_content() -> None:
    names = content_names()
    assert len(names) > 20  # the check itself sees the content
    hits = []
    for folder in ("interpreter", "tools"):
        for p in (ROOT / folder).rglob("*.py"):
            text = p.read_text().lower()
            for n in names:
                pat = r"(?<![a-z])" + re.escape(n).replace(r"\ ", "[ _-]?").replace(r"\-", "[ _-]?") + r"(?![a-z])"
                if re.search(pat, text):
                    hits.append(f"{p.relative_to(ROOT)} mentions '{n}'")
    assert hits == []
