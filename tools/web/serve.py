"""`necro serve`: start the web board on this machine (127.0.0.1 unless told otherwise).

The server answers only to its own names (this machine's, the --host given, each --allow-host);
listening on every address (`--host 0.0.0.0`) adds this machine's name and addresses, prints the
links friends can open, and warns that anyone who can reach the port can start games on it.
"""
from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path
from typing import Any

from .sessions import MAX_BOT_SECONDS

EVERYWHERE = ("0.0.0.0", "::", "")


def default_db() -> Path:
    """Where games are kept unless --db says otherwise: the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "necronomicon" / "games.sqlite3"


def add_parser(sub: Any) -> None:
    """Register `necro serve` on the command's subparsers."""
    s = sub.add_parser("serve", help="play, watch and replay games in a browser (pip install 'necronomicon[web]')")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: the network too)")
    s.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    s.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another name the server answers to (a LAN address or host name; repeatable)")
    s.add_argument("--db", type=Path, default=None,
                   help=f"the SQLite file games are kept in (default {default_db()})")
    s.add_argument("--max-bot-seconds", type=float, default=MAX_BOT_SECONDS,
                   help=f"the most CPU seconds a search bot seat may think a decision (default {MAX_BOT_SECONDS:g})")
    s.add_argument("--content-dir", action="append", help="a modder's folder layered over the content")
    s.add_argument("--expansions", help="comma list of expansions a new game starts with")


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now."""
    with socket.socket() as so:
        so.bind((host, 0))
        return int(so.getsockname()[1])


def own_names(host: str) -> list[str]:
    """The names this server answers to when listening on `host`: this machine's own names, plus,
    on every address, its host name and the addresses it is reached by."""
    names = ["127.0.0.1", "localhost", "::1"]
    if host not in EVERYWHERE:
        return names + [host.strip("[]").lower()]
    found = [socket.gethostname().lower()]
    try:
        found += [i[4][0] for i in socket.getaddrinfo(socket.gethostname(), None)]
    except OSError:
        pass
    try:   # the address a route to the outside leaves by (no packet is sent)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as so:
            so.connect(("192.0.2.1", 9))
            found.append(so.getsockname()[0])
    except OSError:
        pass
    return list(dict.fromkeys(names + [f.lower() for f in found if f]))


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
        from .app import create_app
        from .guard import Door
    except ImportError as exc:
        print(f"necro: error: the web board needs its extra: pip install 'necronomicon[web]' ({exc})", file=sys.stderr)
        return 1
    folders = [Path(d) for d in args.content_dir or []]
    for f in folders:
        if not f.is_dir():
            raise OSError(f"no content folder '{f}'")
    if not 0 < args.max_bot_seconds <= 3600:
        raise ValueError(f"--max-bot-seconds must be above 0 and at most 3600, not {args.max_bot_seconds:g}")
    expansions = [e for e in (args.expansions or "").split(",") if e]
    from necronomicon.interpreter.content import load_content
    load_content(folders, expansions=expansions).require_ok()  # bad content: its findings now, not in the browser
    hosts = own_names(args.host) + [h.strip().lower() for h in args.allow_host if h.strip()]
    db = args.db or default_db()
    app = create_app(folders, expansions, db=db, door=Door(set(hosts)), max_bot_seconds=args.max_bot_seconds)
    port = args.port or free_port(args.host if args.host not in EVERYWHERE else "0.0.0.0")
    shown = "127.0.0.1" if args.host in EVERYWHERE else args.host
    print(f"necro serve: open http://{shown}:{port}/ in a browser (Ctrl-C stops)", flush=True)
    print(f"necro serve: games are kept in {db}", flush=True)
    if args.host in EVERYWHERE:
        links = [h for h in hosts if h not in ("127.0.0.1", "localhost", "::1")]
        print("necro serve: WARNING: listening on every network address. Anyone who can reach this port can "
              "start games and replays here; each game is open only to its links' keys, sent in the clear "
              "(plain http): share links only on a network you trust.", flush=True)
        for h in links:
            print(f"necro serve: friends open http://{'[' + h + ']' if ':' in h else h}:{port}/", flush=True)
    uvicorn.run(app, host=args.host, port=port, log_level="warning", timeout_graceful_shutdown=2)
    return 0
