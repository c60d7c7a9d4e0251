"""`necro balance` (placeholder while it is written)."""
from typing import Any


def add_parser(sub: Any) -> None:
    sub.add_parser("balance")
