"""Play with friends (#31) in Debian's chromium: two browsers (each its own profile) play the two
people's seats of one 3-player game with a bot through their own links, to the end, each seeing only
its own view and the other's moves as they happen; the server stops and starts again mid-game; a
browser with no key, a wrong key, a foreign Host or a foreign Origin gets nothing; a phone-sized
screen plays a whole turn."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.web.harness import Server, browser_available, chromium, console_errors

pytestmark = pytest.mark.skipif(not browser_available() and not os.environ.get("CI"),
                                reason="needs selenium, uvicorn and chromium + chromium-driver")

THREE = ["great-cthulhu", "crawling-chaos", "black-goat"]


def wait(browser: Any, cond: Callable[[Any], Any], timeout: float = 20) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(browser, timeout, poll_frequency=0.05,
                         ignored_exceptions=[StaleElementReferenceException]).until(cond)


def board(browser: Any) -> Any:
    return browser.execute_script("return window.necro.board")


def create(browser: Any, server: Server, seats: list[str], hot_seat: bool, seed: int) -> None:
    from selenium.webdriver.support.ui import Select
    browser.get(server.url + "?pace=0")
    wait(browser, lambda b: b.find_elements("css selector", "#f-ruleset option")
         and len(b.find_elements("css selector", ".seat-pick")) == 3)
    browser.find_element("id", "f-seed").clear()
    browser.find_element("id", "f-seed").send_keys(str(seed))
    for sel, seat in zip(browser.find_elements("css selector", ".seat-pick"), seats):
        Select(sel).select_by_value(seat)
    if not hot_seat:
        browser.find_element("id", "f-hotseat").click()
    browser.find_element("id", "btn-start").click()
    wait(browser, lambda b: board(b) is not None)


def my_decision(browser: Any) -> bool:
    """Whether this browser shows its own seat's decision with more than one button (one button,
    alike options, the page answers by itself)."""
    return bool(browser.execute_script(
        "const b = window.necro.board; return !!(b && b.pending && b.held.includes(b.pending.player) "
        "&& b.pending.player === b.viewer && b.pending.groups.length > 1 && document.querySelector('#decision .option'))"))


def click_first(browser: Any) -> None:
    steps = board(browser)["steps"]
    browser.execute_script("document.querySelector('#decision .option').click()")
    wait(browser, lambda b: board(b)["steps"] > steps or board(b)["over"])


def one_button_decisions(server: Server, gid: str, people: list[str]) -> tuple[int, int]:
    """(the people's answers, how many of their decisions showed a single button) in a served game."""
    from necronomicon.interpreter.engine.game import Game
    from necronomicon.tools.web.options import grouped
    session = server.app.games.get(gid)
    played = session.game
    p = played.params
    g = Game(session.content, p["ruleset"], p["factions"], p["seed"], p["layout"])
    answers = single = 0
    for c in played.choices:
        d = g.current()
        if d is not None and d.player in people:
            answers += 1
            single += len(grouped(d.options, set(g.layout.areas), None, g, d.player, d.kind)) == 1
        g.apply(c)
    return answers, single


def play(players: dict[str, Any], until: Callable[[], bool], limit: float = 150) -> int:
    """Each browser answers its own decisions (the first option) until `until()`; how many answers."""
    answers, deadline = 0, time.monotonic() + limit
    while not until():
        assert time.monotonic() < deadline, {p: board(b)["pending"] for p, b in players.items()}
        for p, b in players.items():
            if my_decision(b):
                assert board(b)["viewer"] == p
                click_first(b)
                answers += 1
        time.sleep(0.02)
    return answers


def served_steps(server: Server, gid: str) -> int:
    return len(server.app.games.get(gid).game.choices)


def test_two_friends_and_a_bot_play_to_the_end_through_their_own_links(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db=db)
    port = server.port
    alice = chromium()
    bob = chromium()
    try:
        create(alice, server, ["human", "human", "heuristic"], hot_seat=False, seed=4)
        made = board(alice)
        assert made["held"] == ["great-cthulhu"] and made["people"] == ["great-cthulhu", "crawling-chaos"]
        links = {a.text.split(":", 1)[0]: a.get_attribute("href") for a in alice.find_elements("css selector", "#share a")}
        assert set(links) == {"great-cthulhu", "crawling-chaos", "spectators"}
        gid = alice.execute_script("return window.necro.game")
        bob.get(links["crawling-chaos"].replace("/#", "/?pace=0#"))
        wait(bob, lambda b: board(b) is not None)
        assert board(bob)["held"] == ["crawling-chaos"] and board(bob)["viewer"] == "crawling-chaos"
        players = {"great-cthulhu": alice, "crawling-chaos": bob}
        # each sees only its own view: its own faction's card is its own, no other's
        for p, b in players.items():
            assert [f["id"] for f in board(b)["factions"] if f["own"]] == [p]
        # Bob hears of Alice's moves without reloading: while Alice chooses, Bob's page catches up
        wait(alice, my_decision)
        click_first(alice)
        wait(bob, lambda b: board(b)["steps"] == served_steps(server, gid))
        clicks = 1 + play(players, lambda: board(alice)["round"] >= 2)
        # the server stops and starts again mid-game; both pages continue
        before = served_steps(server, gid)
        server.stop()
        server = Server(db=db, port=port)
        assert served_steps(server, gid) == before
        clicks += play(players, lambda: board(alice)["over"] and board(bob)["over"], limit=300)
        for b in players.values():
            wait(b, lambda x: "The game is over" in x.execute_script("return document.getElementById('decision').textContent"))
        assert board(alice)["steps"] == board(bob)["steps"] == served_steps(server, gid)
        for b in players.values():   # the end screen: standings with Doom, spellbooks, who qualified
            rows = b.find_elements("css selector", "#standings tr")
            assert len(rows) == 4 and "Doom" in rows[0].text
        assert server.app.games.get(gid).game.current() is None
        # a decision showing one button (alike units) was answered for its seat, not clicked
        answers, single = one_button_decisions(server, gid, list(players))
        assert single > 0 and answers == clicks + single, (answers, clicks, single)
        for b in players.values():   # (a page's request while the server was stopped on purpose is refused)
            assert [e for e in console_errors(b) if "status of 4" not in e and "ERR_CONNECTION_REFUSED" not in e] == []
    finally:
        alice.quit()
        bob.quit()
        server.stop()


def test_no_key_a_wrong_key_a_foreign_host_or_origin_gets_nothing(tmp_path: Path) -> None:
    server = Server(db=tmp_path / "g.sqlite3")
    # a page at evil.example whose name resolves to this server (DNS rebinding), in its own browser
    mallory = chromium(1200, 900, "--host-resolver-rules=MAP evil.example 127.0.0.1")
    owner = chromium()
    try:
        create(owner, server, ["human", "human", "heuristic"], hot_seat=False, seed=2)
        gid = owner.execute_script("return window.necro.game")
        games = server.app.games
        held = games.store.count()
        mallory.get(f"{server.url}#game={gid}")     # no key
        wait(mallory, lambda b: "needs its link's key" in b.find_element("id", "toast").text)
        assert board(mallory) is None
        mallory.get(f"{server.url}#game={gid}&key=not-the-key-at-all")
        wait(mallory, lambda b: "does not open this game" in b.find_element("id", "toast").text)
        assert board(mallory) is None
        mallory.get(f"http://evil.example:{server.port}/")
        assert "does not answer to the name" in mallory.find_element("tag name", "body").text
        # from another site's page, a write that needs no permission (a text/plain body, no-cors) is refused:
        # a log sent to the replay viewer (which reads text) opens no replay, a new game is not made
        log = _short_log()
        send = ("fetch(arguments[0], {method: 'POST', mode: 'no-cors', body: arguments[1], "
                "headers: {'Content-Type': 'text/plain'}}).then(() => 'sent', (e) => String(e))")
        assert mallory.execute_script(f"return {send}", f"{server.url}api/replays", log) == "sent"
        assert mallory.execute_script(f"return {send}", f"{server.url}api/games", '{"ruleset": "multiplayer"}') == "sent"
        assert games.store.count() == held and len(server.app.replays) == 0
        # the same log from the server's own page opens
        owner.execute_script(f"return {send.replace('no-cors', 'same-origin')}", f"{server.url}api/replays", log)
        assert len(server.app.replays) == 1
    finally:
        mallory.quit()
        owner.quit()
        server.stop()


def _short_log() -> str:
    from necronomicon.interpreter.bots import make_agent
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.game import Game
    g = Game(load_content().require_ok(), "multiplayer", THREE, 9)
    bots = {f: make_agent("random", i) for i, f in enumerate(THREE)}
    while len(g.choices) < 20:
        d = g.current()
        g.apply(bots[d.player].choose(d.player, d.options, d))  # type: ignore[attr-defined,union-attr]
    return "\n".join(g.log_lines()) + "\n"


def test_a_phone_sized_screen_plays_a_whole_turn(tmp_path: Path) -> None:
    server = Server(db=tmp_path / "g.sqlite3")
    phone = chromium(390, 844)
    try:
        create(phone, server, ["human", "heuristic", "heuristic"], hot_seat=True, seed=3)
        wait(phone, my_decision)
        # the decision comes before the map, and the page is no wider than the screen
        top = phone.execute_script("return [document.getElementById('decision').getBoundingClientRect().top, "
                                   "document.getElementById('map').getBoundingClientRect().top, "
                                   "document.documentElement.scrollWidth, window.innerWidth]")
        assert top[0] < top[1] and top[2] <= top[3], top
        start = board(phone)["round"]
        play({"great-cthulhu": phone}, lambda: board(phone)["round"] > start or board(phone)["over"], limit=120)
        assert board(phone)["steps"] > 3
    finally:
        phone.quit()
        server.stop()
