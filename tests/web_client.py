"""What the web board's API tests share: Starlette's test client (the importing test module is
skipped without the web extra), the board's address and a three-player table."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

BASE = "http://127.0.0.1:8765"
THREE = ["great-cthulhu", "crawling-chaos", "black-goat"]

__all__ = ["BASE", "THREE", "TestClient"]
