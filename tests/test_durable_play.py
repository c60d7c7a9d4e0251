"""`necro play` loses nothing: `--log` is written as the game is played (a kill -9 leaves a partial
log that `necro replay` replays and names as partial); SIGTERM and SIGHUP at a human prompt save the
game as Ctrl-C does; a save that cannot be written leaves no empty or partial file; a save keeps
the seats, so `--resume` continues with the same people and bots; closed standard streams are one
clear line, not a traceback. Real processes: pipes, a pseudo-terminal, a file-size limit."""
from __future__ import annotations

import json
import os
import pty
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from necronomicon.interpreter.engine.game import Game
from necronomicon.tools import atomic_file
from necronomicon.tools.saves import saved_seats, write_save

ROOT = Path(__file__).parent.parent
HUMAN_GAME = ["play", "--ruleset", "duel", "--agents", "human,random", "--seed", "2"]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT))


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "necronomicon.tools.cli", *args]


def _necro(*args: str, cwd: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    kw.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run(_cmd(*args), cwd=cwd, env=_env(), capture_output=True, text=True, timeout=300,
                          check=False, **kw)  # type: ignore[call-overload]


class Prompted:
    """A `necro play` with a human seat on pipes, answered one prompt at a time."""

    def __init__(self, args: list[str], cwd: Path, **kw: object) -> None:
        self.proc = subprocess.Popen(_cmd(*args), cwd=cwd, env=_env(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)  # type: ignore[call-overload]
        self.shown = b""

    def wait_prompt(self) -> bytes:
        assert self.proc.stdout is not None
        got, deadline = b"", time.monotonic() + 120
        while not got.endswith(b"> "):
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(self.proc.stdout.fileno(), 65536) if ready else b""
            assert chunk, f"no prompt; the game printed: {got[-400:]!r}"
            got += chunk
        self.shown = got
        return got

    def answer(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def end(self) -> tuple[int, str]:
        assert self.proc.stderr is not None
        code = self.proc.wait(timeout=120)
        return code, self.proc.stderr.read().decode()


def _saves(folder: Path) -> list[Path]:
    return sorted(folder.glob("necro-save-*.json"))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_at_the_prompt_saves_the_game_with_its_seats_and_resume_seats_them_again(
        tmp_path: Path, signum: int) -> None:
    # a process started in the background of a script ignores Ctrl-C, and necro keeps it so: not here
    game = Prompted(HUMAN_GAME, tmp_path, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for _ in range(3):
        game.wait_prompt()
        game.answer("1")
    game.wait_prompt()
    game.proc.send_signal(signum)
    code, err = game.end()
    assert code == (130 if signum == signal.SIGINT else 128 + signum), err
    assert "Traceback" not in err and "game saved to" in err
    [save] = _saves(tmp_path)
    data = json.loads(save.read_text())
    assert data["seats"] == {"sleeper": "human", "wind-rider": "random"}
    assert len(data["choices"]) >= 3
    # exactly what the message says to run: the human seat is a person again, the other a random bot
    resumed = _necro("play", "--resume", save.name, cwd=tmp_path, input="quit\n", stdin=None)
    assert resumed.returncode == 0, resumed.stderr
    assert "seats: The Sleeper human, The Wind-Rider random" in resumed.stdout   # in the game's words
    assert "The Sleeper: " in resumed.stdout and "> " in resumed.stdout
    # flags override the saved seats
    bots = _necro("play", "--resume", save.name, "--agents", "random", "--quiet", cwd=tmp_path)
    assert bots.returncode == 0 and ("winner" in bots.stdout or "humanity" in bots.stdout), bots.stderr


def test_closing_the_terminal_at_the_prompt_saves_the_game(tmp_path: Path) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: necro on a new terminal, its stderr in a file
        try:
            os.chdir(tmp_path)
            err = os.open(tmp_path / "err.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(err, 2)
            os.execve(sys.executable, _cmd(*HUMAN_GAME), _env())
        finally:
            os._exit(127)
    got, deadline = b"", time.monotonic() + 120
    while not got.endswith(b"> ") and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            got += os.read(fd, 65536)
    os.close(fd)   # the terminal is closed: the kernel sends SIGHUP
    _, status = os.waitpid(pid, 0)
    err = (tmp_path / "err.txt").read_text()
    assert os.waitstatus_to_exitcode(status) == 128 + signal.SIGHUP, err
    assert "the terminal was closed (SIGHUP); game saved to" in err and "Traceback" not in err
    [save] = _saves(tmp_path)
    assert json.loads(save.read_text())["seats"]["sleeper"] == "human"


def test_kill_9_leaves_a_partial_log_that_replays_what_there_is(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    game = Prompted([*HUMAN_GAME, "--log", str(log)], tmp_path)
    for answer in ("1", "1", "undo", "2", "1"):   # an undo rewrites the log being written
        game.wait_prompt()
        game.answer(answer)
    game.wait_prompt()
    game.proc.kill()
    game.proc.wait()
    text = log.read_text()
    assert text.endswith("\n") and '"type": "digest"' not in text
    lines = [json.loads(line) for line in text.splitlines()]
    head = max(i for i, r in enumerate(lines) if r["type"] == "choices")   # rewritten by the undo
    assert head == 0
    answers = lines[head]["choices"] + [r["answer"] for r in lines[head:] if r["type"] == "answer"]
    assert len(answers) >= 4   # the human's four answers and the bot's between them
    replayed = _necro("replay", str(log), "--format", "json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "is a partial log" in replayed.stderr
    result = json.loads(replayed.stdout)
    assert result["partial"] is True and result["over"] is False
    assert result["decisions"] == len(answers)
    log.write_text(text + text.splitlines()[-1][:15])   # a line cut off by the kill
    cut = _necro("replay", str(log), cwd=tmp_path)
    assert cut.returncode == 0 and "last line was cut off" in cut.stderr and "game not over" in cut.stdout


def test_a_finished_game_writes_the_usual_log(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    assert _necro("play", "--ruleset", "duel", "--seed", "5", "--quiet", "--log", str(log), cwd=tmp_path).returncode == 0
    lines = log.read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines[-2:]] == ["choices", "digest"]
    assert not any(json.loads(line)["type"] == "answer" for line in lines)
    assert _necro("replay", str(log), cwd=tmp_path).stderr == ""


def test_a_save_the_disk_refuses_leaves_no_file(tmp_path: Path) -> None:
    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))   # a save is tens of kilobytes
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    game = Prompted(HUMAN_GAME, tmp_path, preexec_fn=small_disk)
    game.wait_prompt()
    game.answer("save mine.json")
    assert b"cannot save to 'mine.json'" in game.wait_prompt()
    game.answer("quit")
    code, err = game.end()
    assert code == 0 and "the game could not be saved" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []   # no empty, partial or temporary file


def test_a_failed_save_keeps_the_previous_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from necronomicon.interpreter.content import load_content
    game = Game(load_content(), "duel", ["sleeper", "wind-rider"], 1)
    path = tmp_path / "s.json"
    write_save(game, path, {"sleeper": "human", "wind-rider": "heuristic"})
    before = path.read_bytes()
    real = os.fsync

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(atomic_file.os, "fsync", full)
    game.apply(game.legal_actions()[0])
    with pytest.raises(OSError, match="No space"):
        write_save(game, path)
    monkeypatch.setattr(atomic_file.os, "fsync", real)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["s.json"]


@pytest.mark.parametrize(("seats", "message"), [
    ({"sleeper": "human", "wind-rider": "cleverest"}, "seats.wind-rider: unknown agent 'cleverest'"),
    ({"sleeper": "human"}, "seats.wind-rider: the save names no agent"),
    (["human"], "seats: should be an object"),
])
def test_saved_seats_are_checked(seats: object, message: str) -> None:
    from necronomicon.interpreter.engine.game import GameError
    with pytest.raises(GameError, match=message.replace("(", r"\(")):
        saved_seats({"seats": seats}, ["sleeper", "wind-rider"], "s.json")


def test_closed_standard_streams_are_one_line(tmp_path: Path) -> None:
    no_input = subprocess.run(_cmd(*HUMAN_GAME), cwd=tmp_path, env=_env(), capture_output=False, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=lambda: os.close(0),
                              timeout=300, check=False)
    assert no_input.returncode == 1
    assert no_input.stderr.strip().splitlines() == [
        "necro: error: standard input is closed, so no one can answer for the human seat(s) sleeper; "
        "run necro play from a terminal, or give bots: --agents heuristic"]
    no_output = subprocess.run(_cmd("play", "--ruleset", "duel", "--quiet"), cwd=tmp_path, env=_env(),
                               stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1), text=True,
                               timeout=300, check=False)
    assert no_output.returncode == 0 and no_output.stderr == ""
