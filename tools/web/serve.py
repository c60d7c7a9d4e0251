"""`necro serve`: start the web board on this machine (127.0.0.1 unless told otherwise)."""
from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    """Register `necro serve` on the command's subparsers."""
    s = sub.add_parser("serve", help="play, watch and replay games in a browser (pip install 'necronomicon[web]')")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    s.add_argument("--content-dir", action="append", help="a modder's folder layered over the content")
    s.add_argument("--expansions", help="comma list of expansions a new game starts with")


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now."""
    with socket.socket() as so:
        so.bind((host, 0))
        return int(so.getsockname()[1])


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
        from .app import create_app
    except ImportError as exc:
        print(f"necro: error: the web board needs its extra: pip install 'necronomicon[web]' ({exc})", file=sys.stderr)
        return 1
    folders = [Path(d) for d in args.content_dir or []]
    for f in folders:
        if not f.is_dir():
            raise OSError(f"no content folder '{f}'")
    expansions = [e for e in (args.expansions or "").split(",") if e]
    app = create_app(folders, expansions)
    port = args.port or free_port(args.host)
    from interpreter.content import load_content
    load_content(folders, expansions=expansions).require_ok()  # bad content: its findings now, not in the browser
    print(f"necro serve: open http://{args.host}:{port}/ in a browser (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=port, log_level="warning")
    return 0
