"""Every budget the engine keeps against untrusted content, in one place (the README lists them).

Content is untrusted: a file that validates must not hang the engine or exhaust memory. Where a
limit can be checked when content loads it is a finding with file:line:col; in play, exceeding one
is a GameError naming the ability and its position, and the game is left as it was.
"""
from __future__ import annotations

# ---- files (interpreter/yamlpos.py, interpreter/content/files.py) ----
MAX_FILE_BYTES = 2 * 1024 * 1024   # one content file
MAX_FILES = 5000                   # content files in all folders
MAX_SOURCE_NODES = 20_000          # values written in one file (the largest content file has about 600)
MAX_NODES = 200_000                # values in one file after aliases are expanded
MAX_DEPTH = 64                     # nesting of YAML mappings and lists

# ---- numbers ----
MAX_NUMBER = 1_000_000             # any whole number in content, in effect text and from arithmetic
MAX_COUNT = 100                    # the `count` of a verb, an Elder Sign bag entry, units of one kind
MAX_DICE = 1000                    # dice in one roll (a unit's combat is checked against it too)
MAX_ROUNDS = 1000                  # a ruleset's `victory: max-rounds`

# ---- effect text (interpreter/effects/parser.py) ----
MAX_TEXT = 20_000                  # characters in one effect
MAX_NESTING = 100                  # brackets, blocks, `not`/`-` chains nested in one effect
MAX_INT_DIGITS = len(str(MAX_NUMBER))  # digits of an integer literal before it is even read

# ---- evaluation (interpreter/effects/compiler.py, interpreter/engine/core.py, phases.py) ----
MAX_FOR_ITEMS = 1000               # items one `for` or list comprehension runs over
MAX_STEPS = 100_000                # loop and comprehension iterations and query results between two decisions
MAX_FORMULA_DEPTH = 16             # a combat, cost or modifier formula evaluated inside another (a formula that
                                   # reads itself); far below Python's and the compiled core's stack limits
MAX_WINDOW_DEPTH = 24              # windows opened inside windows (abilities triggering each other)
MAX_ACTIONS_PER_PHASE = 1000       # actions in one Action Phase before the game ends as stalled
MAX_UNDO = 200                     # checkpoints kept for undo (200 to 400; further back, undo replays the game)
CHECKPOINT_EVERY = 32              # answers between two checkpoints (undo and rollback apply at most 31 again,
                                   # about 2 ms; 16 packed 62 positions in 6 random Duels instead of 38: 0.9% more
                                   # of their instructions)
MAX_DECISIONS = 200_000            # decisions in one game played by run_game
