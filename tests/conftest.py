"""Shared fixtures: content trees loaded once per session."""
from __future__ import annotations

from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content

ROOT = Path(__file__).parent.parent
BASIC = ROOT / "tests" / "fixtures" / "basic"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run the larger soak and fuzz sizes")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="larger size: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the soak / fuzz / property figures (games, states checked, mutations, violations)."""
    from tests.figures import lines
    found = lines()
    if found:
        terminalreporter.write_sep("-", "reliability figures")
        for line in found:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def basic() -> Content:
    return load_content([BASIC], builtin=False).require_ok()


@pytest.fixture(scope="session")
def builtin() -> Content:
    """The built-in content with every expansion (what `necro validate` checks)."""
    return load_content(expansions="all").require_ok()


@pytest.fixture(scope="session")
def base_game() -> Content:
    """The built-in content without expansions (what `necro play` loads by default)."""
    return load_content().require_ok()
