"""The resumable runner of the AI levels' arena matches (tools.arena_all): plays under
tools/, publishes only finished matches into docs/arena/."""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
from pathlib import Path

import pytest

from tools import arena, arena_all

FORM = "turnover-bridge-seed004"
RUN = [
    "--boards",
    "2",
    "--chunk",
    "1",
    "--only",
    FORM,
    "--matchups",
    "normal-easy",
    "--workers",
    "1",
]


@pytest.mark.slow  # plays boards; left out by `make test-fast`
def test_runs_in_chunks_writes_printout_and_summary_then_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = [*RUN, "--docs", str(tmp_path / "docs")]
    assert arena_all.main([*run, "--out", str(tmp_path)]) == 0
    printout = tmp_path / f"{FORM}-normal-vs-easy.txt"
    record = tmp_path / "boards" / f"{FORM}-normal-vs-easy.jsonl"
    text = printout.read_text()
    # the command that made it, then the arena's own printout over both boards
    assert text.startswith("$ python -m tools.arena --a normal --b easy --deals 2 --games 0")
    assert f"--record {record}" in text  # a folder outside the repository: its full path
    assert "--game turnover-bridge --set layout=seed004" in text
    assert "2 boards, 4 deals" in text and "1 played now" in text
    assert "budgets on the cpu clock" in text
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    assert lines[0]["header"]["clock"] == "cpu"
    assert sorted(x["seed"] for x in lines[1:]) == [1, 2]

    readme = (tmp_path / "README.md").read_text()
    row = next(x for x in readme.splitlines() if "layout=seed004" in x and "normal vs easy" in x)
    mean, half = arena.margin_ci([sum(x["margins"]) / 2 for x in lines[1:]])
    assert f"| 2 | {mean:+.3f} | {mean - half:+.3f} .. {mean + half:+.3f} |" in row
    assert f"[{printout.name}]({printout.name})" in row
    # every other match is listed, not started
    assert readme.count("not started") == 2 * len(arena_all.FORMS) - 1

    # again: nothing left to play, the printout and the record are untouched
    capsys.readouterr()
    before = (text, record.read_text())
    assert arena_all.main([*run, "--out", str(tmp_path)]) == 0
    assert "has 2 boards: done" in capsys.readouterr().err
    assert (printout.read_text(), record.read_text()) == before

    # more boards asked for: only the third is played
    assert arena_all.main([*run[:1], "3", *run[2:], "--out", str(tmp_path)]) == 0
    assert "3 boards, 6 deals" in printout.read_text()
    assert "(2 boards from the record" in printout.read_text()
    assert len(record.read_text().splitlines()) == 4


def test_results_are_kept_where_the_tool_lives_and_git_ignored() -> None:
    assert arena_all.RUNS == arena_all.ROOT / "tools" / "arena_runs"
    assert (arena_all.ROOT / "tools" / "arena.py").is_file()  # ROOT is the repository
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "tools/arena_runs/boards/x.jsonl"],
        cwd=arena_all.ROOT,
        check=False,
    )
    if (arena_all.ROOT / ".git").exists():
        assert ignored.returncode == 0, "tools/arena_runs/ is not git-ignored"


@pytest.mark.slow  # plays boards; left out by `make test-fast`
def test_publish_copies_only_finished_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs, docs = tmp_path / "runs", tmp_path / "docs"
    assert arena_all.main([*RUN, "--out", str(runs), "--docs", str(docs)]) == 0
    # two boards played: finished at --boards 2, not at --boards 3
    assert (
        arena_all.main(["--boards", "3", "--out", str(runs), "--docs", str(docs), "--publish"]) == 0
    )
    assert "no finished match" in capsys.readouterr().err
    assert not (docs / f"{FORM}-normal-vs-easy.txt").exists()
    assert "not started" in (docs / "README.md").read_text()
    assert (
        arena_all.main(["--boards", "2", "--out", str(runs), "--docs", str(docs), "--publish"]) == 0
    )
    assert f"published {FORM}-normal-vs-easy" in capsys.readouterr().err
    name = f"{FORM}-normal-vs-easy"
    assert (docs / f"{name}.txt").read_text() == (runs / f"{name}.txt").read_text()
    assert (docs / "boards" / f"{name}.jsonl").read_text() == (
        runs / "boards" / f"{name}.jsonl"
    ).read_text()
    row = next(
        x
        for x in (docs / "README.md").read_text().splitlines()
        if "layout=seed004" in x and "normal vs easy" in x
    )
    assert "| 2 |" in row and "so far" not in row


def test_the_verdict_needs_the_whole_match_and_a_ci_clear_of_zero() -> None:
    assert arena_all._verdict("hard", "normal", 1000, 1000, 0.5, 0.2) == "**hard better**"
    assert "not settled" in arena_all._verdict("hard", "normal", 1000, 1000, 0.1, 0.2)
    assert arena_all._verdict("hard", "normal", 1000, 1000, -0.5, 0.2).startswith(
        "**normal better**"
    )
    assert arena_all._verdict("hard", "normal", 300, 1000, 0.5, 0.2).endswith("so far (300/1000)")


@pytest.mark.slow  # plays boards; left out by `make test-fast`
def test_a_record_kept_for_other_settings_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"
    argv = ["--a", "normal", "--b", "easy", "--deals", "1", "--games", "0", "--workers", "1"]
    argv += ["--game", "turnover-bridge", "--quiet", "--record", str(record)]
    assert arena.main(argv) == 0
    assert arena.main([*argv, "--set", "layout=pagat"]) == 2
    assert len(record.read_text().splitlines()) == 2


def _fake_match(out: Path, name: str, seeds: range) -> None:
    """A match's record, printout and exported plays, as the runner leaves them."""
    (out / "boards").mkdir(parents=True, exist_ok=True)
    (out / "plays").mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"header": {"a": "normal"}})]
    lines += [json.dumps({"seed": s, "margins": [1.0, -1.0], "cpu": 0.5}) for s in seeds]
    (out / "boards" / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    (out / f"{name}.txt").write_text(f"$ python -m tools.arena ...\n\n{len(seeds)} boards\n")
    plays = [json.dumps({"seed": s, "record": {"moves": []}}) for s in seeds]
    (out / "plays" / f"{name}.jsonl").write_text("\n".join(plays) + "\n")


def test_publish_keeps_an_unfinished_match_that_the_runner_takes_up_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs, docs, later = tmp_path / "runs", tmp_path / "docs", tmp_path / "later"
    name = f"{FORM}-normal-vs-easy"
    _fake_match(runs, name, range(1, 3))
    publish = ["--out", str(runs), "--docs", str(docs), "--publish"]
    assert arena_all.main(["--boards", "3", *publish]) == 0
    # not finished: kept apart, with its plays gzipped, and shown as under way
    held = docs / "unfinished"
    assert not (docs / "boards" / f"{name}.jsonl").exists()
    assert (held / "boards" / f"{name}.jsonl").read_text() == (
        runs / "boards" / f"{name}.jsonl"
    ).read_text()
    with gzip.open(held / "plays" / f"{name}.jsonl.gz", "rt") as fh:
        assert fh.read() == (runs / "plays" / f"{name}.jsonl").read_text()
    row = next(x for x in (docs / "README.md").read_text().splitlines() if "layout=seed004" in x)
    assert "so far (2/3)" in row and f"(unfinished/{name}.txt)" in row

    # a fresh run folder (the next session) goes on from the kept boards, not from 0
    argv = ["--boards", "2", "--only", FORM, "--matchups", "normal-easy", "--workers", "1"]
    assert arena_all.main([*argv, "--out", str(later), "--docs", str(docs)]) == 0
    err = capsys.readouterr().err
    assert f"{name} taken up from" in err and f"{name} has 2 boards: done" in err
    assert arena.read_record(str(later / "boards" / f"{name}.jsonl")) == {
        1: [1.0, -1.0],
        2: [1.0, -1.0],
    }
    assert (later / "plays" / f"{name}.jsonl").read_text() == (
        runs / "plays" / f"{name}.jsonl"
    ).read_text()

    # finished there and published: it leaves unfinished/
    assert (
        arena_all.main(["--boards", "2", "--out", str(later), "--docs", str(docs), "--publish"])
        == 0
    )
    assert (docs / "boards" / f"{name}.jsonl").exists()
    assert (docs / "plays" / f"{name}.jsonl.gz").exists()
    assert not (held / "boards" / f"{name}.jsonl").exists()
    assert not (held / "plays" / f"{name}.jsonl.gz").exists()


def test_main_leaves_the_sigterm_handler_as_it_found_it(tmp_path: Path) -> None:
    def mine(signum: int, frame: object) -> None:
        raise AssertionError("not called")

    before = signal.signal(signal.SIGTERM, mine)
    try:
        # nothing to play (no boards asked for), but the runner arms its handler
        argv = ["--boards", "0", "--only", FORM, "--matchups", "normal-easy"]
        assert arena_all.main([*argv, "--out", str(tmp_path), "--docs", str(tmp_path)]) == 0
        assert signal.getsignal(signal.SIGTERM) is mine
        # also when a match fails (a record kept for other settings)
        _fake_match(tmp_path, f"{FORM}-normal-vs-easy", range(1, 2))
        argv[1] = "2"
        assert arena_all.main([*argv, "--out", str(tmp_path), "--docs", str(tmp_path)]) == 1
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, before)
