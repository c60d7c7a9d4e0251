"""Modules stay small: none in interpreter/ or tools/ over MAX_LINES lines (split by job, not by count)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 450


def test_no_module_is_over_the_size() -> None:
    big = {str(p.relative_to(ROOT)): n for pkg in ("interpreter", "tools") for p in sorted((ROOT / pkg).rglob("*.py"))
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines (split them by job): {big}"
