"""Start `necro serve`'s app on a free port in a thread and drive Debian's chromium with selenium."""
from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from typing import Any, Iterator

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def browser_available() -> bool:
    try:
        import selenium  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return False
    return Path(CHROMIUM).exists() and Path(DRIVER).exists()


class Server:
    """The web board's app served by uvicorn in a daemon thread (stopped by stop())."""

    def __init__(self, content_dirs: list[Path] | None = None, expansions: list[str] | None = None,
                 db: Path | None = None, port: int | None = None, **options: Any) -> None:
        import uvicorn

        from necronomicon.tools.web.app import create_app
        from necronomicon.tools.web.serve import free_port
        self.port = port or free_port()
        self.app = create_app(content_dirs, expansions, db=db, **options)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.app.bell.close()          # the open event streams end, so the server can stop
        self.server.should_exit = True
        self.thread.join(timeout=10)
        if self.thread.is_alive():
            raise RuntimeError("the web server did not stop")


def chromium(width: int = 1600, height: int = 1000, *extra: str) -> Any:
    """A headless chromium with the browser console log readable (driver.get_log('browser')), its own
    profile (a browser context of its own: storage, cookies), and `extra` command-line switches."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={width},{height}", "--force-device-scale-factor=1", *extra):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def console_errors(driver: Any) -> list[str]:
    """The browser console's errors since the last call (SEVERE entries)."""
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def served() -> Iterator[Server]:
    s = Server()
    try:
        yield s
    finally:
        s.stop()
