"""`necro validate`: check content folders and report every problem as path:line:col."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from interpreter.content import load_content
from interpreter.diagnostics import Pos, Report, render_json


def validate(dirs: list[str], only: bool = False, fmt: str = "text", out: TextIO | None = None) -> int:
    """Exit status: 0 when no errors, 1 otherwise."""
    out = out or sys.stdout
    folders = [Path(d) for d in dirs]
    try:
        content = load_content(folders, builtin=not only, expansions="all")
        report = content.report
    except Exception as exc:  # noqa: BLE001 - the validator must never show a traceback
        report = Report()
        report.error(Pos(str(folders[0]) if folders else "content"), "internal",
                     f"the validator failed: {type(exc).__name__}: {exc}")
        content = None
    items = report.sorted()
    errors = [d for d in items if d.severity == "error"]
    warnings = [d for d in items if d.severity == "warning"]
    if fmt == "json":
        print(render_json(items), file=out)
        return 1 if errors else 0
    for d in items:
        print(d.render(), file=out)
    if errors:
        print(f"{len(errors)} error(s), {len(warnings)} warning(s)", file=out)
        return 1
    m = content.model if content else None
    summary = (f"{len(m.factions)} factions, {len(m.layouts)} map layouts, {len(m.rulesets)} rulesets, "
               f"{len(m.neutral_units)} neutral units, {len(m.neutral_spellbooks)} neutral spellbooks, "
               f"{len(m.loyalty_cards)} loyalty cards") if m else ""
    print(f"ok: content is valid ({summary}; {len(warnings)} warning(s))", file=out)
    return 0
