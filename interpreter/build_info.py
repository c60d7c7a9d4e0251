"""Which modules make the compiled core, and which build of the engine is running: its Python
source, or the compiled core that `pip install` builds beside that source (hatch_build.py, which
reads `CORE` and `core_sources` from this file). `necro --version` prints the build; the test that
compares the two builds reads it. Standard library only: the build loads this file by its path."""
from __future__ import annotations

import importlib.machinery
import json
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path(__file__).resolve().parent
# written beside the modules by the build of the compiled core: {"profile_guided": bool, "why": str}
RECORD = "_core_build.json"
# The folders and modules compiled, relative to this package: everything that runs during play.
# The content loader, `paths.py` (it reads its own __file__) and the optional RL adapter stay Python.
CORE = ("engine", "effects", "search", "bots.py")


def core_sources(package: Path) -> list[Path]:
    """The source of every module `CORE` names in the package folder `package`, in path order."""
    sources: list[Path] = []
    for entry in CORE:
        base = package / entry
        sources += [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
    return [p for p in sources if p.name != "__init__.py" and p.is_file()]


@dataclass(frozen=True)
class EngineBuild:
    """How many of the core's modules are compiled extensions, whether the build was profile-guided
    (None: no record of it), and where the engine lives."""
    compiled: int
    modules: int
    folder: Path
    profile_guided: bool | None = None

    def describe(self) -> str:
        if self.compiled == 0:
            kind = "Python source"
        elif self.compiled == self.modules:
            guided = {True: ", profile-guided", False: ", not profile-guided", None: ""}[self.profile_guided]
            kind = f"compiled core ({self.compiled} modules{guided})"
        else:
            kind = f"partly compiled ({self.compiled} of {self.modules} core modules)"
        return f"{kind}, {self.folder}"


def engine_build() -> EngineBuild:
    """The running engine's build, read from the files beside its modules."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    sources = core_sources(_ROOT)
    compiled = sum(any(p.with_name(p.stem + sfx).is_file() for sfx in suffixes) for p in sources)
    try:
        guided = json.loads((_ROOT / RECORD).read_text()).get("profile_guided") if compiled else None
    except (OSError, ValueError, AttributeError):
        guided = None
    return EngineBuild(compiled, len(sources), _ROOT, guided if isinstance(guided, bool) else None)
