"""Option labels are made and read back in one module (interpreter/engine/option.py); everything
else reads `Option` records (issue 29, "a typed option/action").

The guard scans the source of interpreter/ and tools/ with `ast` and fails on any module other
than option.py that takes a label apart or matches it against words:

- a string method that takes text apart or tests its shape (`split`, `rsplit`, `partition`,
  `rpartition`, `startswith`, `endswith`, `removeprefix`, `removesuffix`, `find`, `rfind`) called
  on a *label-like* value, or called anywhere with one of the label grammar's separators
  (`#`, `->`, `+`, ` (`) as its argument, whatever the value is named;
- a comparison (`==`, `!=`, `in`, `not in`) of a label-like value with string literals (`ans ==
  "done"`, `label in ("pass", "move")`, `"(gate)" in label`);
- a regular expression (`re.match`, `pattern.search`, `.sub`, ...) applied to a label-like value.

A value is label-like when it is named like one: a name, attribute or subscript key among
`LABEL_NAMES` (`label`, `ans`, `answer`, `opt`, `option`, `choice`, `value`, ...), or an
element or slice of one (`opts[0]`, `label.split()[0]`). What stays allowed: a label used as a
key (`costs[label]`, `f["labels"][ans]`: the frame maps the labels it offered to what they
mean), a label compared with another label or looked up among labels (`ans in mains`,
`answer in d.options`), and labels passed whole to `option.py`'s functions. The allow-list below
names the few lines that look like label parsing but read other text, each with its reason.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from necronomicon.interpreter.engine import actions

ROOT = Path(__file__).resolve().parent.parent
THE_MODULE = Path("interpreter/engine/option.py")
SCANNED = ("interpreter", "tools")

LABEL_NAMES = frozenset({"label", "labels", "ans", "answer", "answers", "opt", "opts", "option", "options",
                         "choice", "choices", "chosen", "value", "action", "last_action", "picked", "pick",
                         "first", "o"})
TEXT_METHODS = frozenset({"split", "rsplit", "partition", "rpartition", "startswith", "endswith", "removeprefix",
                          "removesuffix", "find", "rfind"})
SEPARATORS = frozenset({"#", "->", "+", " (", " (gate)"})
REGEX_METHODS = frozenset({"match", "search", "fullmatch", "sub", "subn", "findall", "finditer"})

# (path, the source line's text stripped): not option labels, though they look like it
ALLOWED = {
    # an agent name such as 'mcts:2s' (interpreter/search/budget.py), not an option
    # a YAML node's text and a content value read by the loader, not options
    ("interpreter/yamlpos.py", 'first = node.value.split("\\n", 1)[0] if node.value else ""'),
    ("interpreter/content/effect_build.py", 'if isinstance(value, dict) and "unknown" in value:'),
    ("interpreter/content/effect_build.py", 'if "interpretation" in value:'),
}


def _labelish(node: ast.AST) -> bool:
    """Whether an expression is named like an option label (see the module docstring)."""
    if isinstance(node, ast.Name):
        return node.id in LABEL_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in LABEL_NAMES
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value in LABEL_NAMES
        return _labelish(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TEXT_METHODS:
        return _labelish(node.func.value)
    return False


def _words(node: ast.AST) -> bool:
    """Whether an expression is string literals (one, or a tuple, list or set of them)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    return False


def label_readings(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for every place in `tree` that takes a label apart or matches it."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, receiver = node.func.attr, node.func.value
            if method in TEXT_METHODS and _labelish(receiver):
                found.append((node.lineno, f".{method}() on a label"))
            elif method in TEXT_METHODS and any(isinstance(a, ast.Constant) and a.value in SEPARATORS
                                                for a in node.args):
                found.append((node.lineno, f".{method}() at a label separator"))
            elif method in REGEX_METHODS and any(_labelish(a) for a in node.args):
                found.append((node.lineno, f"a regular expression's .{method}() on a label"))
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:]):
                if not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                    continue
                if (_labelish(left) and _words(right)) or (_labelish(right) and _words(left)):
                    found.append((node.lineno, "a label compared with words"))
    return found


def _sources() -> list[Path]:
    return sorted(p for d in SCANNED for p in (ROOT / d).rglob("*.py") if ".venv" not in p.parts)


@pytest.mark.parametrize("path", [p.relative_to(ROOT) for p in _sources()], ids=str)
def test_only_the_option_module_reads_labels(path: Path) -> None:
    if path == THE_MODULE:
        return
    text = (ROOT / path).read_text(encoding="utf-8")
    lines = text.splitlines()
    bad = [f"{path}:{n}: {what}: {lines[n - 1].strip()}" for n, what in label_readings(ast.parse(text))
           if (str(path), lines[n - 1].strip()) not in ALLOWED]
    assert not bad, "labels are read only in interpreter/engine/option.py (its functions, or the Option " \
                    "record's fields):\n" + "\n".join(bad)


@pytest.mark.parametrize("source", [
    'words = label.split()',
    'uid = int(ans.rsplit("#", 1)[1])',
    'dst = thing.split("->")[1]',
    'if value.startswith("decline"): pass',
    'if ans == "done": pass',
    'ok = f["label"] in ("pass", "move")',
    'gate = "(gate)" in label',
    'verb = label.split()[0].startswith("ab")',
    'm = _UNIT_ID.search(label)',
    'hits = [o for o in opts if o.startswith(prefix)]',
])
def test_the_guard_finds_label_parsing(source: str) -> None:
    assert label_readings(ast.parse(source)), source


@pytest.mark.parametrize("source", [
    'cost = costs[label]',
    'unit = f["labels"][ans]',
    'main = ans in mains and ans not in opts',
    'o = parse("action", ans)',
    'if o.verb == "done": pass',
    'names = text.split(",")',
    'legal = answer in d.options',
])
def test_the_guard_allows_keys_lookups_and_records(source: str) -> None:
    assert not label_readings(ast.parse(source)), source


def test_the_option_module_itself_reads_labels() -> None:
    """The guard sees the parsing that option.py does (else it would pass whatever it scanned)."""
    assert len(label_readings(ast.parse((ROOT / THE_MODULE).read_text(encoding="utf-8")))) >= 5


def test_every_allowed_line_is_still_there() -> None:
    """An allow-list entry whose line is gone is removed (it would hide a new reading there)."""
    for path, line in ALLOWED:
        assert line in [x.strip() for x in (ROOT / path).read_text(encoding="utf-8").splitlines()], (path, line)


# ---- the record itself ----------------------------------------------------------------------------------
def test_an_option_is_made_into_its_label_and_read_back() -> None:
    from necronomicon.interpreter.engine.option import Option, label_of, parse
    made = [Option("action", "summon", unit_kind="ghoul", area="a", dst="a"),
            Option("action", "battle", area="b", player="blue"),
            Option("action", "ability", ability="ice-age"), Option("action", "ability", ability="ice-age", area="b"),
            Option("action", "requirement", ability="x", word="y"), Option("action", "end-turn"),
            Option("move", "move-unit", unit_kind="acolyte", src="a", dst="b", unit=7), Option("move", "done"),
            Option("unit", "unit", unit_kind="acolyte", src="held:red", unit=3),
            Option("unit", "unit", unit_kind="acolyte", src="a", unit=3, gate=True),
            Option("option", "use", ability="frenzy"), Option("option", "option", word="keep"),
            Option("secret", "pick", value=4), Option("doom", "ritual"), Option("doom", "ability", ability="x"),
            Option("area", "area", area="a"), Option("spellbook", "spellbook", spellbook="s")]
    labels = [label_of(o) for o in made]
    assert labels[:3] == ["summon ghoul a", "battle b blue", "ability ice-age"]
    assert labels[6:10] == ["acolyte a->b#7", "done", "acolyte held:red#3", "acolyte a (gate)#3"]
    assert [parse(o.kind, label) for o, label in zip(made, labels)] == made
    # the cost is the listing's, not part of the label
    assert Option("action", "move", cost=0).label == "move" and parse("action", "move").cost is None


def test_the_listing_gives_records_whose_labels_are_the_decision() -> None:
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.game import Game
    from necronomicon.interpreter.engine.option import Option
    g = Game(load_content().require_ok(), "duel", ["great-cthulhu", "crawling-chaos"], 3)
    while g.current().kind != "action":
        g.apply(g.current().options[0])
    d = g.current()
    listed = [*actions.main_actions(g.rules, d.player), *actions.unlimited_actions(g.rules, d.player)]
    assert all(isinstance(o, Option) and o.kind == "action" and isinstance(o.cost, int) for o in listed)
    assert {o.label: o.cost for o in listed}.items() <= d.context["costs"].items()
    assert {o.verb for o in listed} >= {"summon", "move", "abandon-gate"}


def test_apply_takes_a_record_or_its_label_and_refuses_a_record_of_another_kind() -> None:
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.decisions import IllegalAction
    from necronomicon.interpreter.engine.game import Game
    from necronomicon.interpreter.engine.option import Option, parse
    content = load_content().require_ok()
    by_label = Game(content, "duel", ["great-cthulhu", "crawling-chaos"], 5)
    by_record = by_label.clone()
    for _ in range(40):
        d = by_label.current()
        label = d.options[len(d.options) // 2]
        before = by_record.to_json()
        wrong = Option("secret" if d.kind != "secret" else "action", "pick", value=1)
        with pytest.raises(IllegalAction, match="wrong-kind"):
            by_record.apply(wrong)
        assert by_record.to_json() == before and by_record.why_illegal(wrong)[0] == "wrong-kind"
        by_label.apply(label)
        by_record.apply(parse(d.kind, label))
    assert by_record.digest() == by_label.digest() and by_record.choices == by_label.choices
