"""Procedures declare their steps (#29): a jump to an undeclared step fails when the class is defined."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.engine import flow, rules  # noqa: F401  (rules: every procedure registers)
from necronomicon.interpreter.engine.flow import PROCS, STEP_TABLE, Proc, Return


def test_a_jump_to_an_undeclared_step_fails_when_the_class_is_defined() -> None:
    with pytest.raises(RuntimeError, match=r"a jump to 'finish', which is not one of its declared steps \(start, done\)"):
        class Misspelt(Proc):
            name = "test-misspelt-jump"
            STEPS = ("start", "done")

            def start(self, g: Any, f: dict[str, Any], value: Any) -> Any:
                f["at"] = "finish"

            def done(self, g: Any, f: dict[str, Any], value: Any) -> Any:
                return Return()
    assert "test-misspelt-jump" not in PROCS


def test_a_jump_by_update_or_a_computed_jump_is_checked_too() -> None:
    with pytest.raises(RuntimeError, match="a jump to 'later'"):
        class ByUpdate(Proc):
            name = "test-update-jump"
            STEPS = ("start",)

            def start(self, g: Any, f: dict[str, Any], value: Any) -> Any:
                f.update(i=0, at="later")
    with pytest.raises(RuntimeError, match="a jump to a computed step"):
        class Computed(Proc):
            name = "test-computed-jump"
            STEPS = ("start",)

            def start(self, g: Any, f: dict[str, Any], value: Any) -> Any:
                f["at"] = f["next"]
    assert not {"test-update-jump", "test-computed-jump"} & set(PROCS)


def test_a_jump_in_a_step_inherited_from_a_base_procedure_is_checked_too() -> None:
    class Steps(Proc):   # no name: shared steps, not a procedure of its own
        def start(self, g: Any, f: dict[str, Any], value: Any) -> Any:
            f["at"] = "finish"

    with pytest.raises(RuntimeError, match=r"a jump to 'finish', which is not one of its declared steps \(start\)"):
        class Inheriting(Steps):
            name = "test-inherited-jump"
            STEPS = ("start",)
    assert "test-inherited-jump" not in PROCS


@pytest.mark.parametrize("steps", [(), ("start", "start"), ("start", "missing"), ["start"]])
def test_the_declaration_itself_is_checked(steps: Any) -> None:
    with pytest.raises(RuntimeError, match="STEPS must be|is not a method"):
        class Bad(Proc):
            name = "test-bad-declaration"
            STEPS = steps

            def start(self, g: Any, f: dict[str, Any], value: Any) -> Any:
                return Return()


def test_every_procedure_declares_the_steps_its_frames_reach_and_only_those() -> None:
    assert len(PROCS) > 20
    for name, proc in PROCS.items():
        steps = type(proc).STEPS
        assert steps and proc.has_step(steps[0]), name
        jumps = {target for _, target in flow._jumps(type(proc))}
        assert jumps <= set(steps), name
        assert not proc.has_step("has_step") and not proc.has_step("step") and not proc.has_step("_helper")
        assert set(steps) - jumps <= {steps[0]}, f"{name}: a declared step no jump reaches"


def test_a_frame_at_an_undeclared_step_is_an_error_naming_the_procedure() -> None:
    proc = PROCS["turn"]
    with pytest.raises(Exception, match="procedure 'turn' has no step 'after'"):
        proc.step(None, {"proc": "turn", "at": "after"}, None)


def test_what_a_step_returns_and_the_decision_are_made_by_an_init_of_the_engines_own_source() -> None:
    """The driver's records (Ask, Call, Return) and Decision, made at every step and decision, have
    an `__init__` written in their module, which the compiled core compiles: a dataclass's generated
    one is Python made at import (`<string>`), run interpreted even inside the compiled core."""
    from necronomicon.interpreter.engine import decisions
    for cls in (flow.Ask, flow.Call, flow.Return, decisions.Decision):
        code = getattr(cls.__init__, "__code__", None)
        assert code is not None and code.co_filename != "<string>", cls
    d = decisions.Decision("p", "area", ("a", "b"), "where?")
    assert d.context == {} and d == decisions.Decision("p", "area", ("a", "b"), "where?", {})
    with pytest.raises(AttributeError):   # frozen (dataclasses.FrozenInstanceError)
        d.kind = "unit"  # type: ignore[misc]
    assert flow.Return(3) == flow.Return(3) != flow.Return(4) and flow.Return() == flow.Return(None)
    assert flow.Call({"proc": "x"}) != flow.Return({"proc": "x"}) and repr(flow.Return(2)) == "Return(value=2)"
    assert flow.ask("p", "area", {"a": 1, "b": 0}, "?").decision.options == ("a", "b")
    assert flow.ask("p", "area", ["a", "b", "a"], "?").decision.options == ("a", "b")


def test_the_drivers_table_holds_each_procedures_declared_steps() -> None:
    """The driver calls each step through `flow.STEP_TABLE`: for every procedure, its declared steps
    in order, each the class's method (or its own `step`, for a procedure that runs its frames
    itself); a frame at an undeclared step is still refused, by `Proc.step`."""
    assert set(STEP_TABLE) == set(PROCS)
    for name, proc in PROCS.items():
        cls = type(proc)
        assert tuple(STEP_TABLE[name]) == cls.STEPS, name
        for at, fn in STEP_TABLE[name].items():
            assert fn is (getattr(cls, at) if cls.step is Proc.step else cls.step), (name, at)
    g = type("G", (), {"s": type("S", (), {"flow": [{"proc": "turn", "at": "after"}], "pending": None})()})()
    with pytest.raises(Exception, match="procedure 'turn' has no step 'after'"):
        flow.run(g)
