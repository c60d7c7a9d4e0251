"""Necronomicon, a rules-as-data engine for Cthulhu Wars, as one import package.

`necronomicon.interpreter` is the rules engine and `necronomicon.tools` the `necro` command and
the web board. In a checkout they are the folders interpreter/ and tools/ at its top, beside this
package, which then looks for its modules there too; the wheel maps those folders into the package
(pyproject.toml), so an install adds the one top-level name `necronomicon`.
"""
from __future__ import annotations

from pathlib import Path as _Path

_HERE = _Path(__file__).resolve().parent
if not (_HERE / "interpreter").is_dir():   # a checkout: the folders sit beside this package
    __path__.append(str(_HERE.parent))    # noqa: F821  (a package's own __path__)
