"""Every timing window the engine opens (the schema's `window` enum must list exactly these)."""
from __future__ import annotations

WINDOWS = (
    "action", "unlimited-action", "battle-declared", "before-battle", "battle-roll", "result-assigned",
    "kills-assigned", "pains-assigned", "after-assignment", "retreats", "after-battle", "unit-moved",
    "unit-removed", "unit-captured", "gate-created", "after-action", "gather-power", "after-gather-power",
    "end-of-power-phase", "doom-phase", "end-of-doom-phase", "on-awaken", "ritual", "static",
)
