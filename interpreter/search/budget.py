"""The search bot's settings, read from an agent name: `mcts`, `mcts:400`, `mcts:0.5s`,
`mcts:400:random`, `mcts:0.5s:random:depth=80:c=0.7:prior=0:root=0`, `mcts:0.5s:depth=10:eval=FILE`. The defaults are the strongest
settings measured (benchmarks/strength.py): heuristic rollouts, depth 30, c 1, prior 10, root 0.5.

Parts after `mcts`, in any order: a budget (a whole number of playouts, or seconds of the thinking
thread's CPU time per decision, ending in `s`), a rollout policy (`random` or `heuristic`), `depth=N` (rollout
decisions before the position is estimated), `c=X` (the exploration constant) and `prior=T`
(search guided by the heuristic bot's scores of the options, softmax at temperature T: PUCT) and
`root=E` (a share E of the root's prior spread evenly over its options, so that with few playouts
the values can still overrule a strongly held favourite; 0.5 by default, 0 for none),
`workers=N` (root parallelism: N independent trees, each in its own process where the machine
allows, their root visits summed; a playout budget is shared among them, a time budget is each
one's; see parallel.py) and `widen=K` (progressive widening under a prior: a node searches only
its K x sqrt(visits + 1) options the prior likes best, at least two; 0, the default, for all) and
`eval=FILE` (a learned evaluation written by `necro train`, search/evaluation.py: it values the
position where a rollout is cut off at `depth`, instead of the hand-made estimate of
search/reward.py; it is the last part, since a file name may hold a colon) and `blend=W` (with
`eval=`: the cut-off position is valued W x the evaluation's values + (1 - W) x the hand-made
estimate's; 1, the default, the evaluation alone), `seek=1` (the heuristic bot that plays the
rollouts and gives the prior reaches for unmet spellbook requirements, engine/seeking.py; 0, the
default, the plain heuristic bot), `progress=1` (that bot also scores a move, a summon, a
recruit or a Gate by how much closer it brings its unmet board-state requirements, engine/seeking.py
`Trial`; 0, the default), `reach=1` (that bot also walks a unit toward where it would close a
step of an unmet requirement more than one move away, in steps along the map: engine/seeking.py
`Trial.gain_reach`; 0, the default), `awaken=1` (that bot also reaches for an awakening that would
meet an unmet requirement and keeps the Power it needs: engine/awaken_steps.py; 0, the default),
`company=1` (that bot also brings units beside the holder of a serving ability that counts units:
engine/company.py; 0, the default), `brake=1` (that bot performs no ritual that would bring it to
the Doom goal short of six spellbooks; 0, the default), `own=1` (those requirement settings steer
only the searching player's decisions; rivals' decisions in the rollouts and the prior are the plain
heuristic bot's: rivals.py; 0, the default), `tt=1` (answers that lead to one position share its
statistics: a transposition table) and `reuse=1` (a decision starts from the statistics the
previous search gathered at the position reached; agent.py; both 0, off, by default). A bad part
is one line naming it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SearchConfig", "parse_agent", "POLICIES"]

POLICIES = ("random", "heuristic")
NAME = "mcts"
_SECONDS = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)s$")
MAX_PLAYOUTS = 10_000_000
MAX_SECONDS = 3600.0
MAX_WORKERS = 64


@dataclass(frozen=True)
class SearchConfig:
    """How much a search bot searches and how: exactly one of `playouts` / `seconds` is set."""

    playouts: int | None = 200
    seconds: float | None = None
    policy: str = "heuristic"
    depth: int = 30
    c: float = 1.0
    prior: float = 10.0   # temperature of the heuristic prior (HeuristicAgent.score points); 0: none, plain UCT
    root: float = 0.5     # share of the root's prior spread evenly over its options (every option gets a look)
    workers: int = 1      # independent root-parallel trees (parallel.py)
    widen: float = 0.0    # progressive widening under a prior: K x sqrt(visits + 1) options searched; 0: all
    evaluation: str | None = None   # a learned evaluation's file (`eval=FILE`), used at the depth cap
    blend: float = 1.0    # the evaluation's weight at the cut-off beside the hand-made estimate (with eval=)
    seek: bool = False    # rollouts and prior by the requirement-seeking heuristic bot (engine/seeking.py)
    progress: bool = False   # ... which also scores placements by its requirements' distance (seeking.Trial)
    reach: bool = False   # ... and walks a unit toward where it would close a step, several moves off
    awaken: bool = False  # ... and reaches for an awakening that meets a requirement (engine/awaken_steps.py)
    company: bool = False   # ... and brings units beside a serving ability that counts units (engine/company.py)
    brake: bool = False   # ... and performs no ritual that reaches the Doom goal short of six spellbooks
    own: bool = False     # those settings for the searching player only; rivals by the plain heuristic bot (rivals.py)
    tt: bool = False      # a transposition table: answers leading to one position share its statistics
    reuse: bool = False   # start each decision from the statistics the last search gathered there

    def label(self) -> str:
        """The canonical agent name (what reports show): `mcts:400:heuristic:depth=30:c=1:prior=10:root=0.5`."""
        budget = f"{self.playouts}" if self.playouts is not None else f"{self.seconds:g}s"
        extra = (f":workers={self.workers}" if self.workers != 1 else "") + \
            (f":widen={self.widen:g}" if self.widen else "") + \
            (f":blend={self.blend:g}" if self.blend != 1 else "") + \
            (":seek=1" if self.seek else "") + (":progress=1" if self.progress else "") + (":reach=1" if self.reach else "") + \
            (":awaken=1" if self.awaken else "") + (":company=1" if self.company else "") + \
            (":brake=1" if self.brake else "") + (":own=1" if self.own else "") + (":tt=1" if self.tt else "") + (":reuse=1" if self.reuse else "")
        return (f"{NAME}:{budget}:{self.policy}:depth={self.depth}:c={self.c:g}:prior={self.prior:g}"
                f":root={self.root:g}{extra}" + (f":eval={self.evaluation}" if self.evaluation else ""))


def is_search(name: str) -> bool:
    """Whether an agent name asks for the search bot."""
    return name.split(":", 1)[0].strip() == NAME


def parse_agent(name: str) -> SearchConfig:
    """The settings an agent name asks for; ValueError (one line) for a bad name."""
    text, evaluation = name.strip(), None
    at = text.find(":eval=")
    if at >= 0:
        text, evaluation = text[:at], text[at + len(":eval="):]
        if not evaluation or evaluation != evaluation.strip():
            raise ValueError(f"agent '{name}': eval= needs the file of a trained evaluation (necro train --out FILE)")
    head, *parts = text.split(":")
    if head != NAME:
        raise ValueError(f"'{name}' is not a search agent (it starts with '{NAME}')")
    cfg: dict[str, object] = {}
    seen: set[str] = set()
    for part in parts:
        p = part.strip()
        key = _kind(name, p)
        if key in seen:
            raise ValueError(f"agent '{name}': '{p}' gives the {key} twice")
        seen.add(key)
        if key == "budget":
            if p.endswith("s"):
                secs = float(p[:-1])
                if not 0 < secs <= MAX_SECONDS:
                    raise ValueError(f"agent '{name}': a time budget must be above 0 and at most {MAX_SECONDS:g}s, got '{p}'")
                cfg.update(playouts=None, seconds=secs)
            else:
                n = int(p)
                if not 1 <= n <= MAX_PLAYOUTS:
                    raise ValueError(f"agent '{name}': playouts must be between 1 and {MAX_PLAYOUTS:,}, got '{p}'")
                cfg.update(playouts=n, seconds=None)
        elif key == "policy":
            cfg["policy"] = p
        elif key == "depth":
            d = p.split("=", 1)[1]
            if not d.isdigit() or not 0 <= int(d) <= 100_000:
                raise ValueError(f"agent '{name}': depth must be a whole number from 0 to 100000, got '{d}'")
            cfg["depth"] = int(d)
        elif key == "prior":
            cfg["prior"] = _setting(name, p, 1000, "prior must be a number from 0 (none) to 1000")
        elif key == "root":
            cfg["root"] = _setting(name, p, 1, "root must be a number from 0 to 1")
        elif key == "workers":
            w = p.split("=", 1)[1]
            if not w.isdigit() or not 1 <= int(w) <= MAX_WORKERS:
                raise ValueError(f"agent '{name}': workers must be a whole number from 1 to {MAX_WORKERS}, got '{w}'")
            cfg["workers"] = int(w)
        elif key == "widen":
            cfg["widen"] = _setting(name, p, 100, "widen must be a number from 0 (off) to 100")
        elif key == "blend":
            cfg["blend"] = _setting(name, p, 1, "blend must be a number from 0 to 1")
        elif key in ("seek", "progress", "reach", "awaken", "company", "brake", "own", "tt", "reuse"):
            flag = p.split("=", 1)[1]
            if flag not in ("0", "1"):
                raise ValueError(f"agent '{name}': {key} must be 0 (off) or 1 (on), got '{flag}'")
            cfg[key] = flag == "1"
        else:
            cfg["c"] = _setting(name, p, 100, "c must be a number from 0 to 100")
    if evaluation is not None:
        cfg["evaluation"] = evaluation
    elif "blend" in cfg:
        raise ValueError(f"agent '{name}': blend= weighs a learned evaluation: give one with eval=FILE (last)")
    return SearchConfig(**cfg)  # type: ignore[arg-type]


def _setting(name: str, part: str, top: float, rule: str) -> float:
    """The number of a `key=X` part, from 0 to `top`; ValueError (one line, stating `rule`) otherwise."""
    x = part.split("=", 1)[1]
    try:
        v = float(x)
    except ValueError:
        v = -1.0
    if not 0 <= v <= top:
        raise ValueError(f"agent '{name}': {rule}, got '{x}'")
    return v


# the settings written `key=value` (eval=FILE is taken off the name before its parts are read)
_KEYED = ("depth", "c", "prior", "root", "workers", "widen", "blend", "seek", "progress", "reach", "awaken", "company",
          "brake", "own", "tt", "reuse")


def _kind(name: str, part: str) -> str:
    """Which setting a part of the name gives."""
    if part.isdigit() or _SECONDS.match(part):
        return "budget"
    if part in POLICIES:
        return "policy"
    key, eq, _ = part.partition("=")
    if eq and key in _KEYED:
        return key
    raise ValueError(f"agent '{name}': cannot read '{part}'; expected playouts (400), seconds (0.5s), "
                     f"a rollout policy ({' or '.join(POLICIES)}), depth=N, c=X, prior=T, root=E, workers=N, widen=K, "
                     "blend=W, seek=0|1, progress=0|1, reach=0|1, awaken=0|1, company=0|1, brake=0|1, own=0|1, tt=0|1, reuse=0|1 or eval=FILE (last)")
