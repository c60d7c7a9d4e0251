"""What a person reads names things by their content names, never by id, window id or unit number.

Seeded games (several rulesets, with the expansions) are played through the terminal front end
(every seat a scripted person at `HumanSeat`, so every prompt, menu, status line and log line is
printed) and through the web board's JSON views (`board_json`, each decision, the chooser's view
and a spectator's), and every line a person reads is checked against the loaded content's ids.
"""
from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.effects.windows import WINDOWS
from necronomicon.tools.human_seat import HumanSeat, group_options
from necronomicon.tools.play_session import play_session
from necronomicon.tools.web.board import board_json
from necronomicon.tools.words import WINDOW_WHEN, Words, words_for
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine import phases

EXPANSIONS = ["azathoth", "independents"]
GAMES = [("multiplayer", ["great-cthulhu", "black-goat", "crawling-chaos", "yellow-sign"], 3),
         ("two-player", ["great-cthulhu", "black-goat"], 11),
         ("duel", ["sleeper", "wind-rider"], 5)]
_UNIT_NUMBER = re.compile(r"#\d+")


def _id_pattern(ids: set[str]) -> re.Pattern[str]:
    words = "|".join(sorted((re.escape(i) for i in ids), key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9'-])({words})(?![A-Za-z0-9]|-[A-Za-z0-9])")


def forbidden_ids(model: Any) -> set[str]:
    """Ids a person must not read: every faction, loyalty card, unit, ability, spellbook, area and
    window id that differs from its name, except one ordinary word equal to its name but for case
    (`acolyte` for Acolyte, `action`)."""
    named: dict[str, str] = {}
    holders = [*model.factions.values(), *model.loyalty_cards.values()]
    for f in holders:
        named[f.id] = f.name
        for u in f.units.values():
            named[u.id] = u.name
            named.update({a.id: a.name for a in u.abilities})
        for b in f.spellbooks.values():
            named[b.id] = b.name
            named.update({a.id: a.name for a in b.abilities})
        named.update({a.id: a.name for a in f.abilities})
    named.update({u.id: u.name for u in model.neutral_units.values()})
    named.update({b.id: b.name for b in model.neutral_spellbooks.values()})
    for layout in model.layouts.values():
        named.update({a.id: a.name for a in layout.areas.values()})
    named.update({w: w for w in WINDOWS})
    return {i for i, n in named.items() if "-" in i or n.casefold() != i}


def offending(lines: list[str], pattern: re.Pattern[str], names: re.Pattern[str] | None = None) -> list[str]:
    """The lines naming an id or a unit number, outside the content names they quote (`names`:
    a name may hold a word that is some other thing's id, as `Submerge (rise)`)."""
    return [line for line in lines
            if pattern.search(names.sub("", line) if names else line) or _UNIT_NUMBER.search(line)]


def names_pattern(model: Any) -> re.Pattern[str]:
    names = {n for n in words_for(model).names.values() if n}
    return re.compile("|".join(sorted((re.escape(n) for n in names), key=len, reverse=True)))


@pytest.fixture(scope="module")
def content() -> Any:
    return load_content(expansions=EXPANSIONS).require_ok()


class _Person(io.TextIOBase):
    """A person at the terminal answering every prompt with a small number (seeded), now and then
    with an answer the seat refuses (a word that is no option, a typo, a number past the menu)."""

    REFUSED = ("sideways", "summn", "99")

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def readline(self, size: int = -1) -> str:   # type: ignore[override]
        if self.rng.random() < 0.1:
            return self.rng.choice(self.REFUSED) + "\n"
        return f"{self.rng.randint(1, 3)}\n"


@pytest.mark.parametrize("ruleset,factions,seed", GAMES)
def test_a_terminal_game_shows_no_id_nor_unit_number(content: Any, ruleset: str, factions: list[str],
                                                     seed: int) -> None:
    game = Game(content, ruleset, factions, seed=seed)
    out = io.StringIO()
    seat = HumanSeat(factions, _Person(seed), out)
    assert play_session(game, {f: seat for f in factions}, seat, out=out, err=out) == 0
    lines = out.getvalue().splitlines()
    assert any("is not one of the options" in line for line in lines) and any("there is no option" in line
                                                                             for line in lines)
    assert len(lines) > 300 and any(line.startswith("winner:") or "victory" in line or "humanity" in line
                                    for line in lines[-2:])
    bad = offending(lines, _id_pattern(forbidden_ids(content.model)), names_pattern(content.model))
    assert not bad, f"{len(bad)} lines name ids, e.g. {bad[:5]}"


def _readable(board: dict[str, Any]) -> list[str]:
    """Every text of a board JSON that the browser shows a person."""
    out = [line["text"] for line in board["log"]]
    out += [str(board.get("result") or "")]
    p = board["pending"]
    if p is not None:
        out.append(p["question"])
        out += [g["label"] for g in p.get("groups", [])]
    for f in board["factions"]:
        out += [f["name"], *(b["name"] for b in f["spellbooks"]), *(b["text"] for b in f["spellbooks"]),
                *(r["text"] for r in f["requirements"])]
    out += [u["name"] for u in board["units"]] + [u["owner_name"] for u in board["units"]]
    out += [a["name"] for a in board["map"]["areas"]]
    return out


@pytest.mark.parametrize("ruleset,factions,seed", GAMES[:2])
def test_the_web_boards_views_show_no_id_nor_unit_number(content: Any, ruleset: str, factions: list[str],
                                                        seed: int) -> None:
    from necronomicon.interpreter.bots import make_agent
    game = Game(content, ruleset, factions, seed=seed)
    bots = {f: make_agent("heuristic" if i % 2 else "random", seed + i) for i, f in enumerate(factions)}
    pattern, names = _id_pattern(forbidden_ids(content.model)), names_pattern(content.model)
    words, refusals = words_for(content.model), set()
    seen, decisions = 0, 0
    while not game.is_over():
        d = game.current()
        for viewer in (d.player, None):
            board = board_json(game.content, game.layout, game.view(viewer), game.log[seen:], phases.ritual_track(game.rules), game)
            bad = offending(_readable(board), pattern, names)
            assert not bad, f"decision {decisions}: {bad[:5]}"
        for refused in _refused_answers(game, d, decisions):
            why = game.why_illegal(refused)
            assert why is not None, refused
            bad = offending([words.refusal(*why, d, game)], pattern, names)
            assert not bad, f"decision {decisions}, refusing {refused!r}: {bad}"
            refusals.add(why[0])
        seen = len(game.log)
        game.apply(bots[d.player].choose(d.player, d.options, d))
        decisions += 1
    board = board_json(game.content, game.layout, game.view(None), game.log[-50:], phases.ritual_track(game.rules), game)
    assert board["result"] and not offending(_readable(board), pattern, names) and decisions > 100
    assert {"not-an-option", "none-in-pool"} <= refusals, refusals   # the engine's reasons, not only the list


def _refused_answers(game: Game, d: Decision, step: int) -> list[str]:
    """A few answers the engine refuses at `d`, naming content by id as a script would: a word
    that is no option, a legal action moved to another area, and a unit the player summons or
    recruits (most have none left in the pool, or cannot pay, at some point)."""
    areas = sorted(game.layout.areas)
    tried = ["sideways"]
    if d.kind == "action":
        moved = [o for o in d.options if o.count(" ") == 2]
        if moved:
            verb, what, _ = moved[step % len(moved)].split(" ")
            tried.append(f"{verb} {what} {areas[step % len(areas)]}")
        kinds = sorted(basics.faction(game.rules, d.player).units)
        tried += [f"summon {kinds[step % len(kinds)]}", f"recruit {kinds[0]}"]
    return [t for t in tried if t not in d.options]


def test_the_check_finds_ids_and_unit_numbers(content: Any) -> None:
    pattern = _id_pattern(forbidden_ids(content.model))
    assert offending(["great-cthulhu's acolyte: south-pacific -> australia", "grunt b->c#7",
                      "gather-power: use an ability?", "Dark Young"], pattern) == \
        ["great-cthulhu's acolyte: south-pacific -> australia", "grunt b->c#7", "gather-power: use an ability?"]
    assert not offending(["Great Cthulhu's Acolyte: South Pacific -> Australia (move)", "Acolyte", "action"], pattern)
    assert offending(["rules uses Submerge (rise)"], pattern) and \
        not offending(["rules uses Submerge (rise)"], pattern, names_pattern(content.model))


def test_prompts_say_what_is_decided_in_words(content: Any) -> None:
    """A window's question names the ability and when (`after Black Goat's action`), a spellbook pick
    shows each book's text, and no prefix is doubled."""
    game = Game(content, "multiplayer", ["great-cthulhu", "black-goat", "crawling-chaos"], seed=1)
    words = words_for(content.model)
    game.s.flow.append({"proc": "window", "window": "after-action", "event": {"player": "black-goat"}})
    try:
        d = Decision("great-cthulhu", "ability", ("devolve", "done"), "after-action: use an ability?",
                     {"window": "after-action"})
        assert words.prompt(d, game) == "Great Cthulhu: use Devolve after Black Goat's action?"
        mine = {"proc": "window", "window": "after-action", "event": {"player": "great-cthulhu"}}
        game.s.flow.append(mine)
        assert words.prompt(d, game) == "Great Cthulhu: use Devolve after your action?"
    finally:
        del game.s.flow[-2:]
    d = Decision("great-cthulhu", "ability", ("yha-nthlei", "immortal", "done"), "gather-power: use an ability?",
                 {"window": "gather-power"})
    assert words.prompt(d, None) == "Great Cthulhu: use an ability after gathering Power?"
    d = Decision("great-cthulhu", "action", ("move", "pass"), "great-cthulhu: choose an action")
    assert words.prompt(d, None) == "Great Cthulhu: choose an action"
    d = Decision("great-cthulhu", "option", ("a", "b"), "Devolve: Devolve: choose")
    assert words.prompt(d, None) == "Great Cthulhu: Devolve: choose"
    books = ("devolve", "absorb")
    d = Decision("great-cthulhu", "spellbook", books, "Take this one in the first Doom Phase.: choose a spellbook")
    assert words.prompt(d, None) == ("Great Cthulhu: choose a spellbook (requirement met: "
                                     "Take this one in the first Doom Phase)")
    menu = [c.shown for c in group_options(books, None, "great-cthulhu", words, d)]
    assert menu[0].startswith("Devolve: After any player's action, swap any of your Acolytes")
    assert menu[1].startswith("Absorb: Before a battle with a Shoggoth")
    assert set(WINDOW_WHEN) == set(WINDOWS)    # every window has its words


def test_ids_stay_available_and_bookkeeping_stays_hidden(content: Any) -> None:
    ids = words_for(content.model, ids=True)
    assert ids.text("great-cthulhu's acolyte#7: south-pacific") == "great-cthulhu's acolyte#7: south-pacific"
    assert "great-cthulhu/kill-tally" in ids.bookkeeping and not Words.ids().bookkeeping
    from necronomicon.tools.render import event_text
    tally = {"type": "ability", "player": "great-cthulhu", "ability": "great-cthulhu/kill-tally",
             "name": "Kills this battle (spellbook tally)"}
    assert event_text(tally, words_for(content.model)) is None and event_text(tally, ids) is None
    devolve = {**tally, "ability": "great-cthulhu/devolve", "name": "Devolve"}
    assert event_text(devolve, words_for(content.model)) == "  Great Cthulhu uses Devolve"


ALL = "azathoth,independents,neutrals,published"
_FILE = re.compile(r"\S+\.ya?ml")   # a card names the file it was read from (for modders): a path, not an id
# a card's own words that hold an ordinary word which is also some ability's id (Submerge (rise))
_CARD_WORDS = re.compile(r"Submerge's rise")


def _shown(capsys: Any, *argv: str) -> list[str]:
    from necronomicon.tools.cli import main
    assert main(["show", *argv, "--expansions", ALL]) == 0
    return capsys.readouterr().out.splitlines()


def test_show_names_things_by_their_names_and_ids_only_when_asked(capsys: Any, monkeypatch: Any) -> None:
    """Every line of `necro show faction` (each faction's card and the list) and `necro show map`
    (each layout and the list) names factions, units, areas, abilities, spellbooks, tokens,
    layouts, timings and once-per scopes by name; `--ids` adds the ids for scripts."""
    monkeypatch.setenv("COLUMNS", "250")   # long lines: an id is never folded across two
    model = load_content(expansions=ALL.split(",")).require_ok().model
    pattern, names = _id_pattern(forbidden_ids(model) | set(model.layouts)), names_pattern(model)
    shown = {"faction list": _shown(capsys, "faction")}   # (the map list gives the ids `show map` takes)
    shown.update({f"faction {f}": _shown(capsys, "faction", f) for f in model.factions})
    shown.update({f"map {lay}": _shown(capsys, "map", lay) for lay in model.layouts})
    bad = {what: found for what, lines in shown.items()
           if (found := offending([_CARD_WORDS.sub("", _FILE.sub("", x)) for x in lines], pattern, names))}
    assert not bad, bad
    assert sum(len(lines) for lines in shown.values()) > 400
    card = "\n".join(shown["faction wind-rider"])
    assert "1 × Ice Age" in card and "once per Doom Phase" in "\n".join(shown["faction black-goat"])
    table = "\n".join(shown["map earth-3w5e"])
    assert "South Pacific" in table and "Great Cthulhu" in table and "(earth-3w5e)" not in table
    with_ids = "\n".join(_shown(capsys, "map", "earth-3w5e", "--ids"))
    assert "south-pacific" in with_ids and "great-cthulhu" in with_ids and "(earth-3w5e)" in with_ids
    card_ids = "\n".join(_shown(capsys, "faction", "wind-rider", "--ids"))
    assert "1 × Ice Age (ice-age)" in card_ids and "earth-3w5e" in card_ids and "(wind-rider)" in card_ids
