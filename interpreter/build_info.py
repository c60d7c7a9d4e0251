"""Which build of the engine is running: its Python source, or the compiled core that `pip install`
builds beside that source (hatch_build.py). `necro --version` prints it; the test that compares the
two builds reads it."""
from __future__ import annotations

import importlib.machinery
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path(__file__).resolve().parent
# the folders and modules hatch_build.COMPILED names, relative to this package
_CORE = ("engine", "effects", "search", "bots.py")


@dataclass(frozen=True)
class EngineBuild:
    """How many of the core's modules are compiled extensions, and where the engine lives."""
    compiled: int
    modules: int
    folder: Path

    def describe(self) -> str:
        if self.compiled == 0:
            kind = "Python source"
        elif self.compiled == self.modules:
            kind = f"compiled core ({self.compiled} modules)"
        else:
            kind = f"partly compiled ({self.compiled} of {self.modules} core modules)"
        return f"{kind}, {self.folder}"


def engine_build() -> EngineBuild:
    """The running engine's build, read from the files beside its modules."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    sources: list[Path] = []
    for entry in _CORE:
        base = _ROOT / entry
        sources += [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
    sources = [p for p in sources if p.name != "__init__.py" and p.is_file()]
    compiled = sum(any(p.with_name(p.stem + sfx).is_file() for sfx in suffixes) for p in sources)
    return EngineBuild(compiled, len(sources), _ROOT)
