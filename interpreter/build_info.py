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
# written beside the modules by the wheel's build: {"compiled": bool, "profile_guided": bool, "why": str,
# "everything": bool (NECRO_COMPILE_ALL=1: PYTHON_BY_DEFAULT compiled too)}
RECORD = "_core_build.json"
# written beside the record once the first `necro` run has said that the build fell back to Python
TOLD = "_core_build.told"
# The folders and modules compiled, relative to this package: everything that runs during play
# (the rules engine, the effect language's evaluation, the search bot). The content loader,
# `paths.py` (it reads its own __file__) and the optional RL adapter stay Python.
CORE = ("engine", "effects", "search", "bots.py")
# The modules of CORE the default build leaves in Python, each with why: none runs while a game is
# played, so compiling them costs install time (a seventh of the C to compile) for no speed a game shows
# (benchmarks/compiled_set.py measures the two builds side by side). `NECRO_COMPILE_ALL=1`
# (hatch_build.py) compiles them too.
PYTHON_BY_DEFAULT = {
    "effects/parser.py": "reads effect text once, when content is loaded",
    "effects/static.py": "static types of expressions, checked when content is compiled",
    "effects/events.py": "what `event` carries where text runs, checked when content is compiled",
    "effects/registry.py": "the primitives' declarations, read when content is compiled",
    "effects/signatures.py": "the primitives' declarations, made once at import",
    "effects/windows.py": "tables of windows and their events, made once at import",
    "effects/primitive_facts.py": "tables of what primitives read, made once at import",
    "effects/listed_choices.py": "finds the choices decided at listing time, when content is compiled",
    "effects/docs.py": "prints the documentation's tables",
    "engine/explain.py": "the sentence for a refused answer, made only when one is refused",
    "engine/invariants.py": "the invariant checks of `--check`, the soak and the tests",
    "engine/savefile.py": "reads and checks saves and logs, once per file",
    "search/fitting.py": "`necro train`'s fitting, which numpy does",
    "bots.py": "makes a bot from its name, once per seat",
}


def core_sources(package: Path, everything: bool = False) -> list[Path]:
    """The source of every module `CORE` names in the package folder `package`, in path order,
    without those of PYTHON_BY_DEFAULT unless `everything`."""
    sources: list[Path] = []
    for entry in CORE:
        base = package / entry
        sources += [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
    left = set() if everything else {package / name for name in PYTHON_BY_DEFAULT}
    return [p for p in sources if p.name != "__init__.py" and p.is_file() and p not in left]


@dataclass(frozen=True)
class EngineBuild:
    """How many of the core's modules are compiled extensions, whether the build was profile-guided
    (None: no record of it), where the engine lives, and why the install could not compile the core
    ("" when it did not try, or did)."""
    compiled: int
    modules: int
    folder: Path
    profile_guided: bool | None = None
    fallback: str = ""

    def describe(self) -> str:
        if self.compiled == 0 and self.fallback:
            kind = (f"Python source: the install could not build the compiled core ({self.fallback}); "
                    "`pip install -v .` shows the build")
        elif self.compiled == 0:
            kind = "Python source"
        elif self.compiled == self.modules:
            guided = {True: ", profile-guided", False: ", not profile-guided", None: ""}[self.profile_guided]
            kind = f"compiled core ({self.compiled} modules{guided})"
        else:
            kind = f"partly compiled ({self.compiled} of {self.modules} core modules)"
        return f"{kind}, {self.folder}"


def _record(folder: Path) -> dict:
    """The build record beside the modules in `folder` ({} when there is none, or it is unreadable)."""
    try:
        facts = json.loads((folder / RECORD).read_text())
    except (OSError, ValueError):
        return {}
    return facts if isinstance(facts, dict) else {}


def engine_build() -> EngineBuild:
    """The running engine's build, read from the files beside its modules."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    facts = _record(_ROOT)
    sources = core_sources(_ROOT, everything=facts.get("everything") is True)
    compiled = sum(any(p.with_name(p.stem + sfx).is_file() for sfx in suffixes) for p in sources)
    guided = facts.get("profile_guided") if compiled else None
    return EngineBuild(compiled, len(sources), _ROOT, guided if isinstance(guided, bool) else None,
                       _fallback(facts))


def _fallback(facts: dict) -> str:
    """Why the wheel's build fell back to pure Python, from its record ("" when it did not)."""
    if facts.get("compiled") is not False:
        return ""
    why = facts.get("why")
    return why[:300] if isinstance(why, str) and why else "no reason recorded"


def first_run_notice() -> str:
    """The line the first `necro` run prints when the install fell back to pure Python (pip hides
    the build's own warning), once: "" after it was said, and whenever the core is compiled."""
    why = _fallback(_record(_ROOT))
    told = _ROOT / TOLD
    if not why or told.exists():
        return ""
    try:
        told.write_text("said\n")
    except OSError:
        pass   # a read-only install: it is said on every run rather than never
    return (f"necro: the engine runs as pure Python, slower: the install could not build the compiled core "
            f"({why}). `necro --version` says which engine runs; `pip install -v .` shows the build.")
