"""`necro validate`: every kind of content error is reported at its exact file:line:col."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from necronomicon.tools.cli import main
from necronomicon.tools.validate import validate

BAD = Path(__file__).parent / "bad"

# (folder, the exact first diagnostic line, relative to the repository root)
CASES = [
    ("yaml-syntax", "tests/bad/yaml-syntax/f.yaml:4:1: error: YAML syntax error: expected ',' or ']', but got '<stream end>' [yaml-syntax]"),
    ("schema-type", "tests/bad/schema-type/f.yaml:5:57: error: units/0/count: 'many' is not of type 'integer' [schema]"),
    ("schema-unknown-key", "tests/bad/schema-unknown-key/f.yaml:11:5: error: unknown key 'abilites' in spellbooks/0 (did you mean 'abilities'?) [schema]"),
    ("effect-syntax", "tests/bad/effect-syntax/f.yaml:17:28: error: unexpected 'gain_power'; expected one of: '{' [effect-syntax]"),
    ("unknown-reference", "tests/bad/unknown-reference/f.yaml:8:74: error: unknown unit kind 'serpant' (did you mean 'serpent'?) [unknown-reference]"),
    ("unknown-function", "tests/bad/unknown-function/f.yaml:5:78: error: unknown function 'powr' (did you mean 'power'?) [unknown-function]"),
    ("unknown-argument", "tests/bad/unknown-argument/f.yaml:10:29: error: 'units' has no argument 'onwer' (did you mean 'owner'?) (units(owner?: any, kind?: kinds, class?: class, area?: area, where?: str)) [unknown-argument]"),
    ("type-error", "tests/bad/type-error/f.yaml:5:84: error: expected a list, got a whole number [type-error]"),
    ("map-asymmetric", "tests/bad/map-asymmetric/m.yaml:10:11: error: layout 'lopsided': 'x' lists 'y' as adjacent, but 'y' does not list 'x' [adjacency-asymmetric]"),
    ("map-disconnected", "tests/bad/map-disconnected/m.yaml:13:11: error: layout 'islands' is not connected: cannot reach z from 'x' [adjacency-disconnected]"),
    ("duplicate-key", "tests/bad/duplicate-key/f.yaml:4:1: error: duplicate key 'name' [yaml-duplicate-key]"),
    ("alias-bomb", "tests/bad/alias-bomb/bomb.yaml:1:1: error: YAML too large: more than 200000 values (an alias bomb?) [yaml-too-large]"),
    ("deep-nesting", "tests/bad/deep-nesting/deep.yaml:4:70: error: YAML too large: nested deeper than 64 levels [yaml-too-large]"),
    ("unknown-field", "tests/bad/unknown-field/f.yaml:16:14: error: a unit has no field 'onwer' (did you mean 'owner'?) [unknown-field]"),
    ("event-unbound", "tests/bad/event-unbound/f.yaml:8:53: error: 'event' is not bound here: this requirement has no 'when' window [unbound-name]"),
    ("ruleset-missing-count", "tests/bad/ruleset-missing-count/r.yaml:4:17: error: ruleset 'three-to-five' allows 5 players but its 'ritual-track' has no track for \"5\" [player-count]"),
    ("unknown-kind", "tests/bad/unknown-kind/f.yaml:1:7: error: unknown kind 'factoin' (did you mean 'faction'?); one of: faction, loyalty-card, map, neutral-spellbook, neutral-unit, ruleset, token [unknown-kind]"),
]


@pytest.fixture(autouse=True)
def _repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(__file__).parent.parent)


@pytest.mark.parametrize("folder,expected", CASES, ids=[c[0] for c in CASES])
def test_bad_file_reports_exact_position(folder: str, expected: str) -> None:
    out = io.StringIO()
    assert validate([str(BAD / folder)], only=True, out=out) == 1
    # the minimal factions of tests/bad/ also hold fewer than six spellbooks (a warning)
    lines = [line for line in out.getvalue().splitlines() if ": warning: " not in line]
    assert lines[0] == expected
    assert lines[-1].startswith(f"{len(lines) - 1} error(s)")


def test_all_errors_are_reported_not_just_the_first() -> None:
    out = io.StringIO()
    validate([str(BAD / "unknown-argument")], only=True, out=out)
    assert "'power' needs argument 'player'" in out.getvalue()
    assert out.getvalue().splitlines()[-1] == "2 error(s), 1 warning(s)"   # and: never six spellbooks


def test_json_format_gives_the_same_findings() -> None:
    out = io.StringIO()
    assert validate([str(BAD / "map-asymmetric")], only=True, fmt="json", out=out) == 1
    items = json.loads(out.getvalue())
    assert items == [{"path": "tests/bad/map-asymmetric/m.yaml", "line": 10, "col": 11, "severity": "error",
                      "code": "adjacency-asymmetric", "logical": "",
                      "message": "layout 'lopsided': 'x' lists 'y' as adjacent, but 'y' does not list 'x'"}]


def test_valid_tree_exits_zero_with_a_summary() -> None:
    out = io.StringIO()
    assert validate(["tests/fixtures/basic"], only=True, out=out) == 0
    assert out.getvalue().startswith("ok: content is valid (3 factions, 1 map layouts, 1 rulesets")


def test_missing_folder_is_an_error_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--only", "tests/no-such-folder"]) == 1
    assert "content folder 'tests/no-such-folder' does not exist" in capsys.readouterr().out


def test_layering_a_mod_over_builtin_content_overrides_by_id(tmp_path: Path) -> None:
    from necronomicon.interpreter.content import load_content
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "rules.yaml").write_text((Path("tests/fixtures/basic/rulesets.yaml").read_text()
                                     .replace("max-rounds: 20", "max-rounds: 7")))
    c = load_content([Path("tests/fixtures/basic"), mod], builtin=False)
    assert c.ok
    assert c.model.rulesets["test-multi"].get("victory")["max-rounds"] == 7


def test_same_id_twice_in_one_folder_is_an_error(tmp_path: Path) -> None:
    for n in ("a", "b"):
        (tmp_path / f"{n}.yaml").write_text("kind: token\nid: same\nname: Same\n")
    out = io.StringIO()
    assert validate([str(tmp_path)], only=True, out=out) == 1
    assert "token 'same' is also defined at" in out.getvalue()


LOAD_CHECK_CODES = {"unknown-field", "unbound-name", "player-count", "event-field", "no-start-area"}


def test_real_content_and_fixtures_have_none_of_the_load_checks_findings() -> None:
    """The misspelt-field, unbound-event, player-count and start-area checks find nothing in the
    shipped content or fixtures."""
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.content.build import ALL_EXPANSIONS
    found = [d.render() for d in load_content(expansions=ALL_EXPANSIONS).report.items if d.code in LOAD_CHECK_CODES]
    for folder in sorted(p for p in Path("tests/fixtures").iterdir() if p.is_dir()):
        found += [d.render() for d in load_content([folder], builtin=False).report.items if d.code in LOAD_CHECK_CODES]
    assert found == []


def test_ruleset_check_names_a_missing_map_and_wrong_default_factions(tmp_path: Path) -> None:
    text = (BAD / "ruleset-missing-count" / "r.yaml").read_text()
    (tmp_path / "m.yaml").write_text((BAD / "ruleset-missing-count" / "m.yaml").read_text())
    (tmp_path / "r.yaml").write_text(text.replace(', "5": pair}', "}").replace('\n  "4": [5, 6, 7, 7, 8, 8, 9, 10]',
                                     '\n  "4": [5, 6, 7, 7, 8, 8, 9, 10]\n  "5": [5, 6, 7]')
                                     + "default-factions: {\"3\": [a, b]}\n")
    out = io.StringIO()
    validate([str(tmp_path)], only=True, out=out)
    text_out = out.getvalue()
    assert "allows 5 players but its 'map' has no layout for \"5\" [player-count]" in text_out
    assert "the default factions for 3 players name 2 [player-count]" in text_out
    assert "has no track" not in text_out


def _builtin_copy(tmp_path: Path) -> Path:
    """A copy of the built-in content tree, to break one thing in."""
    import shutil
    from necronomicon.interpreter import paths
    tree = tmp_path / "content"
    shutil.copytree(paths.content_dir(), tree)
    return tree


def _refused(tree: Path) -> tuple[str, list[str]]:
    """Validate `tree` alone, which must fail: the whole output and its error lines."""
    out = io.StringIO()
    assert validate([str(tree)], only=True, out=out) == 1
    return out.getvalue(), [line for line in out.getvalue().splitlines() if ": error: " in line]


def test_a_layout_without_a_start_area_for_a_default_faction_is_an_error(tmp_path: Path) -> None:
    """Found by benchmarks/fuzz_content.py (seed 23): with one of the Sleeper's start areas
    dropped from the Earth map, validation passed but the Duel's default game could not start."""
    tree = _builtin_copy(tmp_path)
    earth = tree / "maps" / "earth.yaml"
    lines = earth.read_text().splitlines(keepends=True)
    # the Duel's Sleeper starts beside the published expansion's full-game Sleeper: drop it alone
    dropped = [i for i, line in enumerate(lines) if line.strip() == "starts: [sleeper, sleeper-full]"]
    assert len(dropped) == 2   # one per side of the map
    lines[dropped[0]] = lines[dropped[0]].replace("[sleeper, ", "[")
    earth.write_text("".join(lines))
    out, _ = _refused(tree)
    found = [line for line in out.splitlines() if "[no-start-area]" in line]
    errors = [line for line in found if ": error: " in line]
    assert len(errors) == 1
    assert "rulesets/duel.yaml:" in errors[0]
    assert "seats faction 'sleeper' on layout 'earth-3w3e' for 2 players" in errors[0]
    assert f"{earth}:" in errors[0]   # the layout's own place
    assert not [line for line in found if ": warning: " in line]   # it still starts on other layouts
    lines[dropped[1]] = lines[dropped[1]].replace("[sleeper, ", "[")   # now on none: a warning at the faction as well
    earth.write_text("".join(lines))
    out, _ = _refused(tree)
    warnings = [line for line in out.splitlines() if "[no-start-area]" in line and ": warning: " in line]
    assert len(warnings) == 1 and "factions/sleeper.yaml:" in warnings[0]
    assert "faction 'sleeper' has no start area on any map layout (earth-3w3e, earth-3w5e, earth-5w3e, " \
        "earth-5w5e): it cannot play" in warnings[0]


def test_area_is_bound_only_in_the_effect_of_an_action_with_where(tmp_path: Path) -> None:
    """Found by benchmarks/fuzz_content.py (seed 24): Ice Age without its `where:` validated, then
    failed when used ('area' is not bound). `area` is the area a `where:` action ends in."""
    tree = _builtin_copy(tmp_path)
    rider = tree / "factions" / "wind-rider.yaml"
    text = rider.read_text()
    assert text.count('        where: "areas()"\n        effect: "place_token(\'ice-age\', area)"') == 1
    rider.write_text(text.replace('        where: "areas()"\n', "", 1))
    out, errors = _refused(tree)
    assert len(errors) == 1 and "factions/wind-rider.yaml:" in errors[0]
    assert "'area' is not bound here: only the effect of an action ability with 'where:' has an area" in errors[0]
    # in a condition (or a cost), even with `where:`, `area` is not bound (the listing has no area yet)
    rider.write_text(text.replace('        where: "areas()"\n', '        where: "areas()"\n        condition: "count(units(area: area)) >= 0"\n', 1))
    out, _ = _refused(tree)
    assert "'area' is not bound here" in out


def _basic_with(tmp_path: Path, faction_extra: str = "", unit_abilities: str = "", ruleset_extra: str = "") -> str:
    """tests/fixtures/basic with text added to red's faction, its Grunt and the ruleset; the findings."""
    import shutil
    tree = tmp_path / "basic"
    shutil.copytree(Path("tests/fixtures/basic"), tree)
    red = tree / "factions" / "red.yaml"
    text = red.read_text().replace("combat: 1}", "combat: 1" + (", abilities: [" + unit_abilities + "]" if unit_abilities else "") + "}", 1)
    red.write_text(text + faction_extra)
    rules = tree / "rulesets.yaml"
    rules.write_text(rules.read_text() + ruleset_extra)
    out = io.StringIO()
    validate([str(tree)], only=True, out=out)
    return out.getvalue()


def test_self_and_me_are_unbound_where_no_unit_or_owner_exists(tmp_path: Path) -> None:
    """`self` is a unit's own ability's unit (a faction's ability or any modifier has none), `me`
    the owner (a ruleset's rule has none): reading them there failed only when the ability ran."""
    out = _basic_with(tmp_path, faction_extra=(
        "abilities:\n"
        "  - {id: f, name: F, window: action, cost: 1, effect: \"gain_power(me, count(units(area: self.loc)))\"}\n"))
    assert "'self' is not bound here: only a unit's own abilities have 'self' (the unit) [unbound-name]" in out
    out = _basic_with(tmp_path / "2", unit_abilities=(
        "{id: g, name: G, window: static, modifiers: [{target: combat, when: \"subject.loc == self.loc\", value: \"value + 1\"}]}"))
    assert "'self' is not bound here: a modifier reads its 'subject', not 'self' [unbound-name]" in out
    out = _basic_with(tmp_path / "3", ruleset_extra=(
        "abilities:\n"
        "  - {id: r, name: R, window: gather-power, optional: false, effect: \"gain_power(me, 1)\"}\n"))
    assert "'me' is not bound here: a ruleset's rule has no owner [unbound-name]" in out
    # where they exist, they are fine: a unit's own ability reads `self`, a faction's reads `me`
    out = _basic_with(tmp_path / "4", unit_abilities=(
        "{id: h, name: H, window: action, cost: 1, effect: \"gain_power(me, count(units(area: self.loc)))\"}"))
    assert out.splitlines()[-1].startswith("ok: content is valid"), out


@pytest.mark.parametrize("where", ["true", "-7", '"count(areas())"', "\"'arctic'\""])
def test_a_where_that_gives_no_list_of_areas_is_a_type_error(tmp_path: Path, where: str) -> None:
    """Found by benchmarks/fuzz_content.py (seed 26): an action's or an awakening's `where:` of
    `true` or `-7` validated, then failed with a TypeError when listed."""
    tree = _builtin_copy(tmp_path)
    goat = tree / "factions" / "black-goat.yaml"
    text = goat.read_text()
    assert text.count('      where: "areas(controlled_by: me)"\n') == 1
    goat.write_text(text.replace('      where: "areas(controlled_by: me)"\n', f"      where: {where}\n"))
    nyar = tree / "expansions" / "independents" / "nyarlathotep.yaml"
    lines = nyar.read_text().splitlines(keepends=True)
    i = next(k for k, line in enumerate(lines) if line.startswith("    where: "))
    lines[i] = f"    where: {where}\n"
    nyar.write_text("".join(lines))
    out, errors = _refused(tree)
    assert len(errors) == 2, errors
    assert all("[type-error]" in e and "expected a list of areas, got " in e for e in errors)
    assert any("factions/black-goat.yaml:" in e for e in errors)
    assert any(f"nyarlathotep.yaml:{i + 1}:" in e for e in errors)


def test_two_abilities_of_one_owner_with_one_id_and_a_misspelt_plucked_field_are_errors(tmp_path: Path) -> None:
    """Found by benchmarks/fuzz_content.py (seed 11): two of the Duel's rules given one id, and a
    misspelt field in Azathoth's pluck(picks, 'value'), validated, then failed in play."""
    tree = _builtin_copy(tmp_path)
    duel = tree / "rulesets" / "duel.yaml"
    text = duel.read_text()
    assert text.count("  - id: dark-towers-at-start-areas\n") == 1
    duel.write_text(text.replace("  - id: dark-towers-at-start-areas\n", "  - id: doom-for-kills\n"))
    azathoth = tree / "expansions" / "azathoth" / "azathoth.yaml"
    text = azathoth.read_text()
    assert text.count("pluck(picks, 'value')") == 2
    azathoth.write_text(text.replace("pluck(picks, 'value')", "pluck(picks, 'vxlue')", 1))
    out, errors = _refused(tree)
    assert len(errors) == 2, errors
    dup = next(e for e in errors if "[duplicate-id]" in e)
    assert "ability id 'doom-for-kills' is also used at " in dup and "among duel's abilities" in dup
    field = next(e for e in errors if "[unknown-field]" in e)
    assert "azathoth.yaml:" in field and "no game record has a field 'vxlue' (did you mean 'value'?)" in field


def test_event_is_fine_in_a_requirement_with_a_window(tmp_path: Path) -> None:
    text = (BAD / "event-unbound" / "f.yaml").read_text()
    (tmp_path / "f.yaml").write_text(text.replace('condition: "event.cause == me"',
                                                  'when: unit-captured, condition: "event.cause == me"'))
    out = io.StringIO()
    assert validate([str(tmp_path)], only=True, out=out) == 0, out.getvalue()


def test_a_requirement_at_the_removal_window_is_refused_where_it_is_written(tmp_path: Path) -> None:
    """The engine checks no requirement at unit-removed (it opens inside the effect under way, and
    no content asks for it), so the loader refuses one instead of letting it never be met."""
    text = (BAD / "event-unbound" / "f.yaml").read_text()
    (tmp_path / "f.yaml").write_text(text.replace('condition: "event.cause == me"',
                                                  'when: unit-removed, condition: "event.cause == me"'))
    _, errors = _refused(tmp_path)
    line = text.splitlines().index(next(x for x in text.splitlines() if "event.cause" in x)) + 1
    col = text.splitlines()[line - 1].index("{") + 1
    assert len(errors) == 1 and f"f.yaml:{line}:" in errors[0], errors
    assert "a requirement cannot be checked at 'unit-removed'" in errors[0] and errors[0].endswith("[requirement]")
    assert f":{line}:{col}:" not in errors[0]   # the `when` value itself, not the requirement's start


@pytest.mark.parametrize("line,expected", [
    ("  - {id: a, name: A, text: t, window: pre-battle, effect: nothing}",
     "f.yaml:8:39: error: abilities/0/window: unknown value 'pre-battle' (did you mean 'before-battle'?); "
     "one of: action, unlimited-action, battle-declared, before-battle,"),
    ("  - {id: a, name: A, text: t, window: static, modifiers: [{target: combatt, value: 1}]}",
     "f.yaml:8:68: error: abilities/0/modifiers/0/target: unknown value 'combatt' (did you mean 'combat'?); one of:"),
])
def test_a_schema_word_list_mismatch_gets_a_did_you_mean(tmp_path: Path, line: str, expected: str) -> None:
    text = (BAD / "event-unbound" / "f.yaml").read_text().replace("great-old-ones: []\n",
                                                                   f"great-old-ones: []\nabilities:\n{line}\n")
    (tmp_path / "f.yaml").write_text(text)
    out = io.StringIO()
    assert validate([str(tmp_path)], only=True, out=out) == 1
    first = next(line for line in out.getvalue().splitlines() if ": warning: " not in line)
    assert first.startswith(f"{tmp_path}/{expected}"), first


def test_a_requirement_window_mismatch_gets_a_did_you_mean(tmp_path: Path) -> None:
    text = (BAD / "event-unbound" / "f.yaml").read_text().replace('text: "Kill an enemy unit",',
                                                                   'text: "Kill an enemy unit", when: after-battel,')
    (tmp_path / "f.yaml").write_text(text)
    out = io.StringIO()
    validate([str(tmp_path)], only=True, out=out)
    assert "requirements/0/when: unknown value 'after-battel' (did you mean 'after-battle'?)" in out.getvalue()
    errors = [line for line in out.getvalue().rstrip().splitlines() if ": warning: " not in line]
    assert errors[0].endswith(", static, state [schema]")
