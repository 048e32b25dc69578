"""THE contract of every command on a root without trajectories and on a path that is no folder
(cli/_roots.py): the same exit status, the same words, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.builders import fara_folder
from webeval_core.cli import main
from webeval_core.reading.formats import layouts

# Each command that reads a root, with the arguments it needs besides the root; `{out}` is a path
# the command would write (it must not be written).
ROOT_COMMANDS: dict[str, tuple[str, ...]] = {
    "ls": (),
    "ls --json": ("--json",),
    "score": (),
    "report": (),
    "bundle": ("-o", "{out}"),
    "export": ("-o", "{out}"),
    "index": (),
    "query": ("SELECT 1",),
    "watch": ("--once",),
    "judge": ("--judge", "outcome", "--endpoint", "nowhere", "--dry-run"),
}


def _run(name: str, root: Path, out: Path) -> int:
    args = [a.replace("{out}", str(out)) for a in ROOT_COMMANDS[name]]
    return main([name.split(maxsplit=1)[0], str(root), *args])


@pytest.mark.parametrize("name", sorted(ROOT_COMMANDS))
def test_a_root_without_trajectories_fails_alike_and_writes_nothing(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    out = tmp_path / "written"

    code = _run(name, root, out)

    said = capsys.readouterr()
    command = name.split(maxsplit=1)[0]
    assert code == 1
    assert said.out == ""
    assert f"webeval {command}: {root}: no trajectory folder found; {layouts()}" in said.err
    assert "Traceback" not in said.err
    assert not out.exists()  # no empty site, no empty export


@pytest.mark.parametrize("name", [*sorted(ROOT_COMMANDS), "show", "app"])
def test_a_missing_path_is_said_alike_by_every_command(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing"
    command = name.split(maxsplit=1)[0]
    code = main([command, str(missing)]) if name in ("show", "app") else _run(name, missing, tmp_path / "o")

    assert code == 1
    assert f"webeval {command}: {missing}: the folder does not exist" in capsys.readouterr().err


def test_a_file_given_as_a_root_is_named_for_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "web_surfer.log"
    log.write_text("{}\n", encoding="utf-8")
    for command in ("ls", "score", "show", "index"):
        assert main([command, str(log)]) == 1
        assert f"webeval {command}: {log}: this is a file, not a trajectory folder" in capsys.readouterr().err


def test_counts_agree_with_their_noun(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fara_folder(tmp_path / "WebTailBench_hf" / "traj", "alltrails_find_23")
    assert main(["index", str(tmp_path)]) == 0
    assert "Indexed 1 trajectory in 1 run under" in capsys.readouterr().out
