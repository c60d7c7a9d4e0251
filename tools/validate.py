"""`necro validate`: check content folders and report every problem as path:line:col."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.diagnostics import Diagnostic, Pos, Report, render_json
from necronomicon.interpreter.paths import content_dir


def _under(path: str, folder: Path) -> bool:
    try:
        Path(path).resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*"))
            if f.is_file() and "__pycache__" not in f.parts}


def checkout_note(checked: Path | None = None, start: Path | None = None) -> str | None:
    """When run inside a checkout of this project whose content/ is not the content being checked
    (a non-editable install checks its installed copy) and the two differ: a line saying which."""
    checked = (checked or content_dir()).resolve()
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and (folder / "content").is_dir():
            try:
                ours = 'name = "necronomicon"' in pyproject.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                ours = False
            if not ours or (folder / "content").resolve() == checked:
                return None
            try:
                same = _tree(folder / "content") == _tree(checked)
            except OSError:
                same = False
            if same:
                return None
            return (f"note: checked the installed built-in content at {checked}, which differs from this "
                    f"checkout's {folder / 'content'}; `pip install -e .` (or `necro validate --only "
                    f"{folder / 'content'}`) checks the checkout")
    return None


def _split_builtin(items: list[Diagnostic], dirs: list[str], only: bool, all_warnings: bool) -> tuple[list[Diagnostic], int]:
    """The findings to print, and how many built-in-content warnings were left out: with folders
    to check, the built-in content's own warnings are one summary line unless --all-warnings."""
    if not dirs or only or all_warnings:
        return items, 0
    builtin = content_dir()
    hidden = [d for d in items if d.severity == "warning" and _under(d.path, builtin)
              and not any(_under(d.path, Path(x)) for x in dirs)]
    return [d for d in items if d not in hidden], len(hidden)


def validate(dirs: list[str], only: bool = False, fmt: str = "text", out: TextIO | None = None,
             all_warnings: bool = False, err: TextIO | None = None) -> int:
    """Print every finding (errors first, each group in file order); exit status: 0 when no errors, 1 otherwise."""
    out = out or sys.stdout
    note = checkout_note() if not only else None
    if note:
        print(note, file=err or sys.stderr)
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
    readings = [d for d in items if d.severity == "reading"]
    if not all_warnings:   # declared readings (README) are listed on request only
        items = [d for d in items if d.severity != "reading"]
    shown, hidden = _split_builtin(items, dirs, only, all_warnings)
    shown = [d for d in shown if d.severity == "error"] + [d for d in shown if d.severity != "error"]   # errors first
    for d in shown:
        print(d.render(), file=out)
    if hidden:
        print(f"({hidden} warning(s) about the built-in content not shown; --all-warnings shows them)", file=out)
    if errors:
        print(f"{len(errors)} error(s), {len(warnings)} warning(s)", file=out)
        return 1
    m = content.model if content else None
    summary = (f"{len(m.factions)} factions, {len(m.layouts)} map layouts, {len(m.rulesets)} rulesets, "
               f"{len(m.neutral_units)} neutral units, {len(m.neutral_spellbooks)} neutral spellbooks, "
               f"{len(m.loyalty_cards)} loyalty cards") if m else ""
    declared = f", {len(readings)} declared reading(s) of unknown values (--all-warnings lists them)" if readings else ""
    print(f"ok: content is valid ({summary}; {len(warnings)} warning(s){declared})", file=out)
    return 0
