"""`necro simulate --out` keeps finished work: rows are appended as games finish, a kill -9 keeps
them, the same command continues the file to the very file an uninterrupted run writes, workers
end with a killed parent, a full disk never leaves a broken line, and `necro report` says so
when a file's last line was cut off."""
from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from necronomicon.tools import result_stream
from necronomicon.tools.result_stream import ResultSink
from necronomicon.tools.results import read_rows
from necronomicon.tools.simulate import plan

ROOT = Path(__file__).parent.parent
BATCH = ["simulate", "--ruleset", "duel", "--agents", "random", "--jobs", "2", "--no-progress"]


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "necronomicon.tools.cli", *args]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT))


def _necro(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cmd(*args), cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600,
                          check=False, **kw)  # type: ignore[call-overload]


def _alive(pid: int) -> bool:
    """A process that exists and is not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def _children(pid: int) -> list[int]:
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    kids.append(int(d.name))
            except (OSError, IndexError, ValueError):
                continue
    return kids


def _lines(path: Path) -> int:
    """Lines written so far; 0 while the file is not there (the run's check of `--out`, before
    any game, makes the file and removes it again, so it can vanish between two looks)."""
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_kill_9_then_the_same_command_gives_the_uninterrupted_file(tmp_path: Path) -> None:
    games, ext = "200", "jsonl"
    ref, out = tmp_path / f"ref.{ext}", tmp_path / f"killed.{ext}"
    done = _necro(*BATCH, "--games", games, "--out", str(ref))
    assert done.returncode == 0, done.stderr
    proc = subprocess.Popen(_cmd(*BATCH, "--games", games, "--out", str(out)), cwd=ROOT, env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    header = 1 if ext == "csv" else 0
    deadline = time.monotonic() + 300
    while _lines(out) < header + 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = _children(proc.pid)
    proc.kill()
    proc.wait()
    kept = _lines(out) - header
    assert 3 <= kept < 200, "the run was not killed while games were left"
    assert workers, "the batch ran no worker processes"
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "workers outlived their killed parent"
    again = _necro(*BATCH, "--games", games, "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert f"{kept} of 200 games are there already" in again.stderr
    assert out.read_bytes() == ref.read_bytes()


def test_a_csv_file_cut_in_a_row_is_continued_to_the_uninterrupted_file(tmp_path: Path) -> None:
    ref, out = tmp_path / "ref.csv", tmp_path / "cut.csv"
    assert _necro(*BATCH, "--games", "12", "--out", str(ref)).returncode == 0
    out.write_bytes(ref.read_bytes()[: len(ref.read_bytes()) // 2])   # killed while writing a row
    again = _necro(*BATCH, "--games", "12", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "cut-off last line dropped" in again.stderr
    assert out.read_bytes() == ref.read_bytes()


def test_a_file_size_limit_leaves_only_whole_rows_and_the_next_run_finishes(tmp_path: Path) -> None:
    out, ref = tmp_path / "r.jsonl", tmp_path / "ref.jsonl"
    assert _necro(*BATCH, "--games", "30", "--out", str(ref)).returncode == 0
    limit = len(ref.read_bytes()) // 3   # the disk "fills" a third of the way in

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past the limit fails with EFBIG

    full = _necro(*BATCH, "--games", "30", "--out", str(out), preexec_fn=small_disk)
    assert full.returncode == 1
    assert "Traceback" not in full.stderr
    assert "could not write" in full.stderr and "ends at its last whole row" in full.stderr
    data = out.read_bytes()
    assert data.endswith(b"\n") and 0 < len(data) <= limit
    rows = read_rows(out)   # every line a whole row
    assert rows and len(rows) < 30
    again = _necro(*BATCH, "--games", "30", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert out.read_bytes() == ref.read_bytes()


def test_a_failed_write_is_cut_back_to_the_last_whole_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    specs = plan("duel", 3, 1, ["random"], factions=["sleeper", "wind-rider"])
    path = tmp_path / "r.jsonl"
    sink = ResultSink.open(str(path), None, specs)
    row = {"game": 0, "seed": 1, "ruleset": "duel", "factions": ["sleeper", "wind-rider"], "agents": ["random", "random"],
           "winners": [], "outcome": "humanity"}
    assert sink.append(row)
    real_write = os.write

    def half_then_full(fd: int, data: bytes) -> int:   # the disk fills in the middle of the next row
        if fd == sink.fd and len(data) > 10:
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(result_stream.os, "write", half_then_full)
    assert not sink.append({**row, "game": 1, "seed": 2})
    assert sink.error is not None and "No space left" in sink.error
    assert not sink.append({**row, "game": 2, "seed": 3})   # the batch stops writing after a failure
    monkeypatch.setattr(result_stream.os, "write", real_write)
    assert path.read_bytes() == result_stream.row_line(row, "jsonl")


def test_a_file_of_another_batch_is_refused_unchanged_and_overwrite_replaces_it(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert _necro(*BATCH, "--games", "4", "--out", str(out)).returncode == 0
    before = out.read_bytes()
    other = _necro(*BATCH, "--games", "4", "--seed", "9", "--out", str(out))
    assert other.returncode == 1
    assert "holds rows of another batch" in other.stderr and "Traceback" not in other.stderr
    assert out.read_bytes() == before
    replaced = _necro(*BATCH, "--games", "4", "--seed", "9", "--out", str(out), "--overwrite")
    assert replaced.returncode == 0, replaced.stderr
    assert [r["seed"] for r in read_rows(out)] == [9, 10, 11, 12]


def test_report_names_a_cut_off_last_line_and_reports_the_rows_before_it(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert _necro(*BATCH, "--games", "6", "--out", str(out)).returncode == 0
    whole = out.read_bytes()
    out.write_bytes(whole[: whole.rindex(b"\n", 0, len(whole) - 1) + 40])   # the last row cut off
    with pytest.raises(ValueError, match=r"r\.jsonl:6: .*the last line is cut off"):
        read_rows(out)
    rep = _necro("report", str(out), "--format", "json")
    assert rep.returncode == 0, rep.stderr
    assert "warning" in rep.stderr and "r.jsonl:6" in rep.stderr and "skipped it" in rep.stderr
    assert json.loads(rep.stdout)["games"] == 5
    middle = whole[:40] + whole[41:]   # a broken line that is not the last is still refused
    out.write_bytes(middle)
    bad = _necro("report", str(out))
    assert bad.returncode == 1 and "r.jsonl:1" in bad.stderr and "Traceback" not in bad.stderr
