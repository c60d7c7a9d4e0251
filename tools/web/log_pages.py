"""The readable log in pages: a board carries the last page, and a browser asks for the page before
any line it holds, back to the game's first line (each line keeps its event's `seq`, the point a
log jump goes back to). Only the lines asked for are put in words, so a long game stays fast."""
from __future__ import annotations

from bisect import bisect_left
from typing import Any

from necronomicon.tools.render import event_text
from necronomicon.tools.words import Words

LOG_PAGE = 400    # readable lines in one page (a board's own, and each page asked for)


def log_page(log: list[dict[str, Any]], words: Words, before: int | None = None,
             most: int = LOG_PAGE) -> dict[str, Any]:
    """Up to `most` readable lines of `log` (oldest first) just before the event numbered `before`
    (the end when None), and whether earlier lines are left (`more`)."""
    end = len(log) if before is None else bisect_left(log, before, key=lambda e: e.get("seq") or 0)
    lines: list[dict[str, Any]] = []
    i = end
    while i > 0 and len(lines) < most:
        i -= 1
        e = log[i]
        text = event_text(e, words)
        if text:
            lines.append({"seq": e.get("seq"), "text": text, "type": e["type"], "round": e.get("round")})
    lines.reverse()
    more = any(event_text(log[k], words) for k in range(i - 1, -1, -1))   # stops at the first readable one
    return {"lines": lines, "more": more}
