"""The installed `necro` finds its content, schemas and grammar without the source checkout."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


def test_installed_command_validates_builtin_content_from_any_folder(tmp_path: Path) -> None:
    exe = shutil.which("necro")
    assert exe, "install the project first (see README): the `necro` command is missing"
    r = subprocess.run([exe, "validate"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("ok: content is valid")


def test_paths_point_at_real_folders() -> None:
    from interpreter import paths
    assert (paths.content_dir() / "rulesets").is_dir()
    assert paths.grammar_file().is_file()
    assert any(paths.schema_dir().glob("*.schema.json"))
    assert sys.version_info >= (3, 11)
