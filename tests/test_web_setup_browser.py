"""The new-game form in Debian's chromium: a map layout, a faction drawn at random, shuffled seating
and a random first player are chosen in the form and made by the server as `necro play` makes them;
the seat's "auto end turn" box changes the server's setting for that seat."""
from __future__ import annotations

import os
from typing import Any, Callable

import pytest

from tests.web.harness import Server, browser_available, chromium, console_errors

pytestmark = pytest.mark.skipif(not browser_available() and not os.environ.get("CI"),
                                reason="needs selenium, uvicorn and chromium + chromium-driver")


def wait(browser: Any, cond: Callable[[Any], Any], timeout: float = 20) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(browser, timeout, poll_frequency=0.05,
                         ignored_exceptions=[StaleElementReferenceException]).until(cond)


def test_the_form_chooses_layout_random_faction_seating_and_first_player() -> None:
    from selenium.webdriver.support.ui import Select
    from necronomicon.interpreter.content import load_content
    from necronomicon.tools.game_setup import Setup, make_game
    server = Server()
    browser = chromium()
    try:
        browser.get(server.url + "?pace=0")
        wait(browser, lambda b: b.find_elements("css selector", "#f-ruleset option")
             and len(b.find_elements("css selector", ".seat-pick")) >= 3)
        Select(browser.find_element("id", "f-ruleset")).select_by_value("multiplayer")
        Select(browser.find_element("id", "f-players")).select_by_value("4")
        wait(browser, lambda b: len(b.find_elements("css selector", ".seat-pick")) == 4)
        offered = [o.get_attribute("value") for o in browser.find_elements("css selector", "#f-layout option")]
        assert offered[0] == "earth-3w5e" and "earth-5w3e" in offered and "earth-5w5e" not in offered
        Select(browser.find_element("id", "f-layout")).select_by_value("earth-5w3e")
        picks = browser.find_elements("css selector", ".faction-pick")
        Select(picks[3]).select_by_value("random")
        factions = [Select(p).first_selected_option.get_attribute("value") for p in picks]
        for sel, seat in zip(browser.find_elements("css selector", ".seat-pick"), ["human", "heuristic", "heuristic", "heuristic"]):
            Select(sel).select_by_value(seat)
        Select(browser.find_element("id", "f-seating")).select_by_value("random")
        Select(browser.find_element("id", "f-first")).select_by_value("random")
        browser.find_element("id", "f-seed").clear()
        browser.find_element("id", "f-seed").send_keys("8")
        browser.find_element("id", "btn-start").click()
        wait(browser, lambda b: b.execute_script("return window.necro.board") is not None)
        gid = browser.execute_script("return window.necro.game")
        played = server.app.games.get(gid)
        want = make_game(load_content().require_ok(),
                         Setup("multiplayer", tuple(factions), 8, "earth-5w3e", "random", "random"))
        assert played.game.params == want.params and played.game.layout.id == "earth-5w3e"
        assert list(played.seats.values()).count("human") == 1 and played.seats[factions[0]] == "human"
        # the seat's auto end turn box is the server's setting for that seat
        box = browser.find_element("id", "auto-end")
        assert box.is_displayed() and not box.is_selected()
        box.click()
        wait(browser, lambda b: played.auto_of(factions[0]).end_turn)
        assert played.auto_of(factions[0]).one_option
        assert [e for e in console_errors(browser) if "status of 4" not in e] == []
    finally:
        browser.quit()
        server.stop()
