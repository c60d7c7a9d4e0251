"""Which engine a search-strength benchmark plays on: this checkout's code, compiled where it can be.

A strength or playout figure depends on how many playouts fit in a CPU budget, so measuring the Python
source where players run the compiled core (what `pip install .` builds) understates the bot two to
three times. `use_checkout_code(root)` therefore picks the installed engine when it is compiled and its
core modules' sources are byte for byte this checkout's (the same code, as users run it), and the
checkout's own Python source otherwise; either way it says on stderr which one runs. `--source` in the
script's arguments forces the Python source. Call it before anything imports `necronomicon`.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

FORCE_SOURCE = "--source"


def _installed_same_code(root: Path) -> Path | None:
    """The folder of an installed, compiled `necronomicon.interpreter` whose core sources equal the
    checkout's, else None."""
    saved = list(sys.path)
    sys.path[:] = [p for p in saved if Path(p or os.getcwd()).resolve() != root]
    try:
        spec = importlib.util.find_spec("necronomicon")
    finally:
        sys.path[:] = saved
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))).resolve() / "interpreter"
    if folder == root / "interpreter" or not folder.is_dir():
        return None
    # the checkout's list of core modules, read by its path (standard library only; nothing imported)
    info = importlib.util.spec_from_file_location("_checkout_build_info", root / "interpreter" / "build_info.py")
    assert info is not None and info.loader is not None
    build_info = importlib.util.module_from_spec(info)
    sys.modules[info.name] = build_info   # dataclasses look their module up while the class is made
    try:
        info.loader.exec_module(build_info)
    finally:
        del sys.modules[info.name]
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for src in build_info.core_sources(root / "interpreter"):
        installed = folder / src.relative_to(root / "interpreter")
        if not installed.is_file() or installed.read_bytes() != src.read_bytes():
            return None
        if not any(installed.with_name(installed.stem + sfx).is_file() for sfx in suffixes):
            return None
    return folder


def use_checkout_code(root: Path, argv: list[str]) -> str:
    """Put this checkout's code first on the import path (its compiled build where one is installed);
    returns, and prints on stderr, which engine runs. Removes `--source` from `argv`."""
    root = root.resolve()
    force = FORCE_SOURCE in argv
    if force:
        argv.remove(FORCE_SOURCE)
    folder = None if force else _installed_same_code(root)
    if folder is not None:
        sys.path[:] = [p for p in sys.path if Path(p or os.getcwd()).resolve() != root]
        sys.path.insert(0, str(folder.parent.parent))   # where the installed `necronomicon` is
        what = f"this checkout's code, compiled (installed at {folder})"
    else:
        sys.path.insert(0, str(root))
        what = (f"this checkout's Python source ({root}); " + ("as asked" if force else
                "no installed compiled core has the same code: `pip install .` to measure it as players run it"))
    print(f"engine: {what}", file=sys.stderr)
    return what
