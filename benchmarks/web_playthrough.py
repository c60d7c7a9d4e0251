"""Play whole 3-player games in the web board as a person would: Great Cthulhu clicks buttons, areas
and unit chips in a headless chromium, against two heuristic bots, to the end of the game.

    python -m benchmarks.web_playthrough --seed 7 [--games 1] [--shots DIR]

Prints per game the person's decisions, map and unit clicks, refusals, browser console errors,
the result line and the time; exits 1 if any click was refused or the console logged an error.
Needs the web extra, selenium and Debian's chromium + chromium-driver (see tests/web/harness.py).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # this checkout's engine, not an installed copy

from tests.web.harness import Server, chromium, console_errors

PREFERRED = ["ritual", "battle", "awaken", "summon", "recruit", "move", "control-gate", "create-gate"]
WHY = "const w = document.getElementById('why'); return w ? w.textContent : ''"


class Person:
    """Clicks like a person: habits from PREFERRED, the map for areas and units when an option names them."""

    def __init__(self, driver: Any, rng: random.Random) -> None:
        self.d, self.rng = driver, rng
        self.counts = {"decisions": 0, "map clicks": 0, "unit clicks": 0, "refused": 0}

    def css(self, q: str) -> list[Any]:
        return self.d.find_elements("css selector", q)

    def board(self) -> Any:
        return self.d.execute_script("return window.necro.board")

    def wait(self, cond: Any, timeout: float = 60) -> Any:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait
        return WebDriverWait(self.d, timeout, poll_frequency=0.05,
                             ignored_exceptions=[StaleElementReferenceException]).until(cond)

    def my_turn(self) -> Any:
        self.wait(lambda _: (b := self.board()) is not None and (b["over"] or (
            b["pending"] and b["pending"]["player"] == b["viewer"] and self.css("#decision .option"))))
        return self.board()

    def button(self, answer: str) -> None:
        found = [x for x in self.css("#decision .option") if x.get_attribute("data-answer") == answer]
        (found or self.css("#decision .option"))[0].click()

    def choose(self, b: Any) -> Any:
        p = b["pending"]
        groups = p["groups"]
        if p["kind"] == "action":
            for verb in PREFERRED:
                cands = [g for g in groups if g["label"].startswith(verb)]
                if cands and self.rng.random() < 0.7:
                    return self.rng.choice(cands)
        return self.rng.choice(groups)

    def play_one(self, b: Any) -> None:
        pick, before, kind = self.choose(b), b["steps"], b["pending"]["kind"]
        settled = lambda _: self.board()["steps"] > before or self.css("#clear-filter") or self.d.execute_script(WHY)  # noqa: E731
        if pick["units"] and kind == "unit" and self.rng.random() < 0.7:
            chips = [c for c in self.css("#map .unit") if str(pick["units"][0]) in c.get_attribute("data-units").split(",")]
            if chips:
                chips[0].click()
                self.counts["unit clicks"] += 1
                self.wait(settled)
        elif pick["areas"] and kind in ("area", "move", "action") and self.rng.random() < 0.6:
            self.css(f'#map .area[data-area="{pick["areas"][-1]}"]')[0].click()
            self.counts["map clicks"] += 1
            self.wait(settled)
        if self.board()["steps"] == before and not self.d.execute_script(WHY):
            self.button(pick["answer"])
        self.wait(lambda _: self.board()["steps"] > before or self.d.execute_script(WHY))
        if self.d.execute_script(WHY):
            self.counts["refused"] += 1
            raise RuntimeError(f"refused: {pick['answer']}: {self.d.execute_script(WHY)}")
        self.counts["decisions"] += 1


def play(seed: int, shots: Path | None) -> int:
    server, driver = Server(), chromium()
    try:
        person = Person(driver, random.Random(seed))
        driver.get(server.url + "?pace=0")
        person.wait(lambda _: person.css("#f-ruleset option") and len(person.css(".seat-pick")) == 3)
        driver.find_element("id", "f-seed").clear()
        driver.find_element("id", "f-seed").send_keys(str(seed))
        driver.find_element("id", "btn-start").click()
        start, errors = time.monotonic(), []
        while not (b := person.my_turn())["over"]:
            person.play_one(b)
            errors += console_errors(driver)
            if shots and person.counts["decisions"] % 50 == 0:
                driver.save_screenshot(str(shots / f"seed{seed}-{person.counts['decisions']}.png"))
        if shots:
            driver.save_screenshot(str(shots / f"seed{seed}-end.png"))
        print(f"seed {seed}: " + ", ".join(f"{k} {v}" for k, v in person.counts.items())
              + f", console errors {len(errors)}, {time.monotonic() - start:.0f} s\n  {b['result']}")
        return 1 if errors else 0
    finally:
        driver.quit()
        server.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--shots", type=Path, help="save screenshots here")
    a = ap.parse_args(argv)
    if a.shots:
        a.shots.mkdir(parents=True, exist_ok=True)
    return max(play(a.seed + i, a.shots) for i in range(a.games))


if __name__ == "__main__":
    sys.exit(main())
