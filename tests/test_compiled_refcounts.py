"""The compiled core keeps Python's reference counts: a failing check takes no reference from True.

Cython 3.3 compiles a chained comparison (`a < b <= c + d`) so that when its second operand raises,
one reference too many is taken from the first comparison's result. A search bot checks reveals
on copies whose others' Elder Signs are masked (None), where that operand raises, about once a
decision; after an hour or two of play True's count reached zero and the interpreter aborted
("bool_dealloc: deallocating True or False"). tests/test_compiled_core.py checks on
the installed compiled core that failing reveal checks lose no reference (it failed before the
fix); these tests keep chained comparisons whose later operands can raise out of the compiled
modules."""
from __future__ import annotations

import ast
from pathlib import Path

from necronomicon.interpreter.build_info import core_sources

ROOT = Path(__file__).resolve().parent.parent


def _raising_chains(path: Path) -> list[str]:
    """Chained comparisons whose later operands compute (a call, arithmetic, a subscript) and so can raise."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Compare) and len(node.ops) > 1:
            later = [n for c in node.comparators[1:] for n in ast.walk(c)]
            if any(isinstance(n, (ast.BinOp, ast.Subscript)) or (isinstance(n, ast.Call) and not (
                    isinstance(n.func, ast.Name) and n.func.id == "len")) for n in later):
                out.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}:{node.lineno}")
    return out


def test_no_compiled_module_chains_a_comparison_whose_later_operand_can_raise() -> None:
    found = [where for p in core_sources(ROOT / "interpreter", everything=True) for where in _raising_chains(p)]
    assert not found, f"split these chained comparisons (`a < b and b <= f(c)`), see this test's docstring: {found}"


def test_the_scan_finds_such_a_chain(tmp_path: Path) -> None:
    f = tmp_path / "probe.py"
    f.write_text("def f(a, b, c):\n    return a < b <= a + c\n\ndef g(a, b):\n    return 0 <= a < len(b)\n")
    assert _raising_chains(f) == ["probe.py:2"]
