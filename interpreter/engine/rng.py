"""The one seeded random generator of a game (splitmix64): tiny state, same numbers everywhere."""
from __future__ import annotations

MASK = (1 << 64) - 1


class Rng:
    """Deterministic across processes and platforms; its whole state is one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        self.state, out = draws(self.state, n, 1)
        return out[0]  # type: ignore[no-any-return]

    def below_each(self, n: int, count: int) -> list[int]:
        """`count` draws of `below(n)`, in order: the same numbers as that many calls, drawn in
        one (a bot breaking ties draws one per option of every decision)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        self.state, out = draws(self.state, n, count)
        return out

    def die(self) -> int:
        return self.below(6) + 1


# splitmix64's constants for `draws` (every draw of the game), which the compiled core holds as 64-bit C integers (rng.pxd):
# there every step below is plain unsigned arithmetic, wrapping at 2**64 as `& _MASK` does here
_MASK = MASK
_STEP = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def draws(state: int, n: int, count: int) -> tuple[int, list[int]]:
    """`count` draws of `Rng.below(n)` from generator state `state` (n > 0): the state after
    them and the draws, in order (`Rng.below_each`)."""
    limit = _MASK - (_MASK % n)
    out = []
    while len(out) < count:
        state = (state + _STEP) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        z ^= z >> 31
        if z < limit:
            out.append(z % n)
    return state, out
