"""The board a player reads, in Debian's chromium: a battle played through the board shows the
battle panel (both sides by name, dice as Kill / Pain / Miss faces, who chooses what), a unit
marker says its content name on hover and tap, and a long game's log reaches its first line."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.test_web_browser import css, state, wait
from tests.web.harness import Server, browser_available, chromium, console_errors

pytestmark = pytest.mark.skipif(not browser_available() and not os.environ.get("CI"),
                                reason="needs selenium, uvicorn and chromium + chromium-driver")

THREE = ["great-cthulhu", "crawling-chaos", "black-goat"]
FACES = {"Kill", "Pain", "Miss"}


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    d = chromium()
    yield d
    d.quit()


@pytest.fixture(autouse=True)
def no_console_errors(browser: Any) -> Iterator[None]:
    console_errors(browser)
    yield
    errors = [e for e in console_errors(browser) if "status of 400" not in e]
    assert errors == [], errors


def bots_game(seed: int, until: Any) -> Any:
    """A game of three heuristic bots, played until `until(game)` holds (at most 2,000 answers)."""
    from necronomicon.interpreter.bots import make_agent
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.game import Game
    from necronomicon.interpreter.engine.seat import hand_seats
    g = Game(load_content().require_ok(), "multiplayer", THREE, seed)
    bots = {p: make_agent("heuristic", seed * 31 + i) for i, p in enumerate(THREE)}
    hand_seats(g, bots)
    while g.current() is not None and not until(g) and len(g.choices) < 2000:
        d = g.current()
        g.apply(bots[d.player].choose(d.player, d.options, d))
    return g


def open_link(browser: Any, server: Server, gid: str, key: str) -> None:
    """Open a game's link and wait until the board stands still (its push stream open, no redraw under way)."""
    browser.get(f"{server.url}?pace=0#game={gid}&key={key}")
    wait(browser, lambda b: css(b, "#map .area") and state(b) is not None)
    wait(browser, lambda b: b.execute_script("const S = window.necro; return S.events && S.events.readyState === 1 && !S.refreshing"))
    time.sleep(0.5)   # the stream's first message redraws the board once more
    wait(browser, lambda b: not b.execute_script("return window.necro.refreshing"))


def test_a_battle_played_through_the_board_shows_both_sides_and_the_dice_faces(browser: Any, server: Server,
                                                                              tmp_path: Path) -> None:
    declared = bots_game(1, lambda g: g.s.battle is not None)
    assert declared.s.battle is not None, "the bots' game of seed 1 has a battle"
    answer, attacker, defender = declared.choices[-1], declared.s.battle["attacker"], declared.s.battle["defender"]
    before = bots_game(1, lambda g: len(g.choices) == len(declared.choices) - 1)   # just before the battle
    save = tmp_path / "before-battle.json"
    save.write_text(json.dumps({**before.to_json(), "seats": {attacker: "human", defender: "human",
                                                               **{p: "heuristic" for p in THREE if p not in (attacker, defender)}}}))
    browser.get(server.url + "?pace=0")
    wait(browser, lambda b: css(b, "#f-ruleset option"))
    browser.find_element("id", "file-save").send_keys(str(save))
    wait(browser, lambda b: (s := state(b)) is not None and s["pending"] and s["pending"]["player"] == attacker
         and css(b, f'#decision .option[data-answer="{answer}"]'))
    assert not browser.find_element("id", "battle").is_displayed()
    css(browser, f'#decision .option[data-answer="{answer}"]')[0].click()
    seen: dict[str, Any] = {}

    def battle_shown(b: Any) -> bool:
        if b.find_element("id", "curtain").is_displayed():
            b.find_element("id", "curtain-go").click()    # hot-seat: the other person takes the screen
            return False
        s = state(b)
        if not s or not s["battle"] or not b.find_element("id", "battle").is_displayed():
            return False
        faces = [d.text for d in css(b, "#battle .die")]
        if not faces:
            return False
        seen.update(board=s, faces=faces, text=b.find_element("id", "battle").text,
                    marked=css(b, f'#map .area.battle[data-area="{s["battle"]["area"]}"] .battle-ring'))
        return True
    wait(browser, battle_shown)
    b = seen["board"]["battle"]
    assert set(seen["faces"]) <= FACES and len(seen["faces"]) == sum(s["dice"] for s in b["sides"])
    assert seen["marked"], "the battle's area is marked on the map"
    names = {declared.content.factions[p].name for p in (attacker, defender)}
    assert all(n in seen["text"] for n in names) and b["area_name"] in seen["text"]
    for side in b["sides"]:
        assert all(u["name"] in seen["text"] for u in side["units"])       # units by content name
        assert f"combat {side['combat']}" in seen["text"]
    if b["asking"]:
        assert b["asking"]["question"] in seen["text"] and "#" not in b["asking"]["question"]
    # answer the battle's decisions through the board until it is over
    for _ in range(30):
        if browser.find_element("id", "curtain").is_displayed():
            browser.find_element("id", "curtain-go").click()
        s = state(browser)
        if not s["battle"]:
            break
        steps = s["steps"]
        buttons = css(browser, "#decision .option")
        if buttons and s["pending"]["player"] == s["viewer"]:
            buttons[0].click()
        wait(browser, lambda br: state(br)["steps"] > steps or browser.find_element("id", "curtain").is_displayed())
    wait(browser, lambda br: not state(br)["battle"] and not br.find_element("id", "battle").is_displayed())
    assert any(li.text.startswith("battle in ") for li in css(browser, "#log li"))


def test_a_units_name_shows_on_hover_and_on_tap_and_great_old_ones_stand_out(browser: Any, server: Server) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    gid, links = server.app.games.new({"ruleset": "multiplayer", "factions": THREE, "seed": 4,
                                       "seats": {p: "heuristic" for p in THREE}})
    s = server.app.games.get(gid)
    goos = {k for f in s.content.model.factions.values() for k, t in f.units.items() if t.cls == "great-old-one"}
    while not any(u["kind"] in goos and u["loc"] != "pool" for u in s.game.s.units) and len(s.game.choices) < 400:
        with s.lock:
            s.bot_step()
    s.paused = True
    server.app.games.keep(gid, s)
    open_link(browser, server, gid, links["mine"])
    goo = css(browser, "#map .unit.goo")
    assert goo, "a Great Old One is on the map"
    goo_name = goo[0].get_attribute("data-name")
    other = next(c for c in css(browser, "#map .unit:not(.goo)"))
    assert float(goo[0].find_element("css selector", "rect").get_attribute("height")) > \
        float(other.find_element("css selector", "rect").get_attribute("height"))   # bigger, and ringed in gold
    name = other.get_attribute("data-name")
    assert "\u2026" in other.text or other.text.endswith(name) or name in other.text   # the name, not 'TKIY'
    ActionChains(browser).move_to_element(other).perform()
    wait(browser, lambda b: b.find_element("id", "unit-tip").is_displayed() and name in b.find_element("id", "unit-tip").text)
    ActionChains(browser).move_to_element(browser.find_element("css selector", "header h1")).perform()
    wait(browser, lambda b: not b.find_element("id", "unit-tip").is_displayed())
    goo[0].click()    # a tap shows it too (and, not being this seat's decision, changes nothing)
    wait(browser, lambda b: b.find_element("id", "unit-tip").is_displayed()
         and f"1 \u00d7 {goo_name} (Great Old One)" in b.find_element("id", "unit-tip").text)


def test_a_long_games_log_reaches_its_first_line_and_jumps_back_there(browser: Any, server: Server) -> None:
    gid, links = server.app.games.new({"ruleset": "multiplayer", "factions": THREE, "seed": 7,
                                       "seats": {p: "heuristic" for p in THREE}})
    s = server.app.games.get(gid)
    while s.game.current() is not None and len(s.game.log) < 2500:
        with s.lock:
            s.bot_step()
    s.paused = True
    server.app.games.keep(gid, s)
    open_link(browser, server, gid, links["mine"])
    board = state(browser)
    assert board["log_more"] and len(css(browser, "#log li[data-seq]")) == len(board["log"]) <= 400
    browser.find_element("id", "log-start").click()
    wait(browser, lambda b: css(b, "#log li[data-seq]")[0].text.startswith("game: ") and not css(b, "#log li.earlier"))
    lines = css(browser, "#log li[data-seq]")
    seqs = [int(li.get_attribute("data-seq")) for li in lines]
    assert len(lines) > 400 and seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert browser.execute_script("return document.getElementById('log').scrollTop") == 0
    # the early rounds' lines are points to go back to, as the last ones are
    first_round = next(li for li in lines if li.text.startswith("-- round 2: action"))
    browser.execute_script("window.confirm = () => true")
    first_round.click()
    wait(browser, lambda b: state(b)["round"] == 2 and state(b)["phase"] == "action")
    assert state(browser)["log"][-1]["seq"] == int(first_round.get_attribute("data-seq"))
