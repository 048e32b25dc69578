"""`webeval show | ls | index | export | app` on folders the tests build."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.streamlit_server import free_port, port_free_within, process_group_members, wait_healthy
from tests.builders import fara_folder, wav_folder
from webeval_core.cli import main
from webeval_core.version import __version__


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_show_json_has_the_documented_keys(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "alltrails_find_23")

    code, text = run_cli("show", str(folder), "--json")

    assert code == 0
    payload = json.loads(text)
    for key in ("task_id", "layout", "outcome", "final_answer", "steps", "screenshots", "duration_s",
                "token_usage", "scores", "warnings"):  # fmt: skip
        assert key in payload, key
    assert payload["layout"] == "fara"
    assert payload["outcome"] == "answered"
    step = payload["steps"][1]
    assert set(step) >= {"index", "action", "arguments", "thought", "url", "timestamp", "screenshot", "point"}
    assert step["action"] == "left_click"
    assert "thoughts" not in step["arguments"]
    assert all((folder / rel).is_file() for rel in payload["screenshots"])


def test_show_text_names_task_and_steps(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "t1", generation="solver", naming="solver")
    code, text = run_cli("show", str(folder))
    assert code == 0
    assert "Task t1" in text
    assert "Outcome:  answered" in text


def test_show_unreadable_folder_exits_1_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    code, _ = run_cli("show", str(folder))
    assert code == 1
    err = capsys.readouterr().err
    assert str(folder) in err
    assert "Traceback" not in err


def test_ls_lists_runs_and_unreadable(tmp_path: Path) -> None:
    fara_folder(tmp_path / "runs/sys/fara-7b/me/bench/0/traj", "t1")
    wav_folder(tmp_path / "cli", "7")
    broken = tmp_path / "cli" / "8"
    broken.mkdir()
    (broken / "8_final_answer.json").write_text("not json")

    code, text = run_cli("ls", str(tmp_path))
    assert code == 0
    assert "runs/sys/fara-7b/me/bench/0" in text
    assert "model=fara-7b" in text
    assert "Unreadable folders (1)" in text

    code, text = run_cli("ls", str(tmp_path), "--json")
    payload = json.loads(text)
    assert sorted(r["key"] for r in payload["runs"]) == ["cli", "runs/sys/fara-7b/me/bench/0"]
    assert payload["unreadable"][0]["path"] == str(broken)


def test_export_csv_has_one_row_per_trajectory(tmp_path: Path) -> None:
    fara_folder(tmp_path / "run", "a")
    fara_folder(tmp_path / "run", "b", final_answer="<no_answer>")
    target = tmp_path / "out.csv"

    code, _ = run_cli("export", str(tmp_path / "run"), "-o", str(target))

    assert code == 0
    rows = list(csv.DictReader(target.open()))
    assert [(r["task_id"], r["outcome"]) for r in rows] == [("a", "answered"), ("b", "no_answer")]


def test_index_reports_counts(tmp_path: Path) -> None:
    wav_folder(tmp_path / "cli", "7")
    code, text = run_cli("index", str(tmp_path))
    assert code == 0
    assert "Indexed 1 trajectories in 1 runs" in text


def test_missing_root_is_a_plain_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run_cli("ls", str(tmp_path / "nope"))
    assert code == 1
    assert "not a folder" in capsys.readouterr().err


def test_export_annotations(tmp_path: Path) -> None:
    from webeval_core.review import Annotation, open_store

    wav_folder(tmp_path / "cli", "7")
    store = tmp_path / "notes.sqlite"
    run = json.loads(run_cli("ls", str(tmp_path), "--json")[1])["runs"][0]["key"]
    open_store(str(store)).add(
        Annotation(run=run, task_id="7", reviewer="ann", stage="blind", outcome="unsure", justification="two")
    )
    args = ("--annotations", "--annotations-file", str(store), "--format", "jsonl")
    code, text = run_cli("export", str(tmp_path), *args)
    assert code == 0
    (row,) = [json.loads(line) for line in text.splitlines()]
    assert (row["task_id"], row["outcome"], row["justification"]) == ("7", "unsure", "two")


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"webeval {__version__}\n"


def test_app_refuses_a_root_that_is_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no such root"
    code, _ = run_cli("app", str(missing))
    assert code == 1
    assert f"{missing}: not a folder" in capsys.readouterr().err


def _outward_address() -> str | None:
    """This machine's address on its main network interface (no packet is sent), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


def _start_app(tmp_path: Path, *options: str) -> tuple[Path, int, Path, subprocess.Popen[bytes]]:
    """`webeval app` on a one-trajectory root, in a process group of its own: the test can see (and
    at worst kill) every process it started, Streamlit (the child of `webeval app`) included."""
    root = tmp_path / "root"
    fara_folder(root)
    port = free_port()
    log = tmp_path / "app.log"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "webeval_core.cli", "app", str(root), "--port", str(port), *options]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return root, port, log, process


def test_app_serves_the_root_on_loopback_only(tmp_path: Path) -> None:
    root, port, log, process = _start_app(tmp_path)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        assert f"Opening {root.resolve()} at http://127.0.0.1:{port}" in log.read_text()
        outward = _outward_address()
        if outward is None:
            pytest.skip("this machine has no address beside loopback to try the server on")
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((outward, port), timeout=5).close()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the server's processes in /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_app_stops_its_server_on_a_signal(tmp_path: Path, signum: signal.Signals) -> None:
    _, port, log, process = _start_app(tmp_path)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        assert len(process_group_members(process.pid)) >= 2, "webeval app runs Streamlit as a child"
        process.send_signal(signum)  # to `webeval app` only, as a service manager would
        assert port_free_within(port, timeout_s=5), log.read_text()
        process.wait(timeout=5)
        assert process.returncode == 0, log.read_text()
        assert process_group_members(process.pid) == [], "a process of `webeval app` outlived it"
    finally:
        if process_group_members(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)


def test_app_on_a_busy_port_says_so_and_names_it(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        command = [sys.executable, "-m", "webeval_core.cli", "app", str(root), "--port", str(port)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr


# --- show --html ----------------------------------------------------------------------------


def test_show_html_writes_a_standalone_page_and_reports_it(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path / "runs", "alltrails_find_23")
    target = tmp_path / "out" / "demo.html"
    target.parent.mkdir()

    code, text = run_cli("show", str(folder), "--html", str(target))

    assert code == 0
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<h1>Task alltrails_find_23</h1>" in page
    assert page.count('src="data:image/jpeg;base64,') == 5
    size_kb = round(target.stat().st_size / 1e3)
    assert text == f"Wrote {target} ({size_kb} KB, 5 steps)\n"


def test_show_html_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = fara_folder(tmp_path / "runs", "t1")
    target = tmp_path / "demo.html"
    target.write_text("keep me")

    code, _ = run_cli("show", str(folder), "--html", str(target))

    assert code == 1
    err = capsys.readouterr().err
    assert f"{target}: already exists; pass --force to overwrite it" in err
    assert target.read_text() == "keep me"

    code, text = run_cli("show", str(folder), "--html", str(target), "--force")
    assert code == 0
    assert text.startswith(f"Wrote {target} (")
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("inside", ["demo.html", "scores/demo.html", "../t1/demo.html"])
def test_show_html_refuses_a_file_inside_the_trajectory_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], inside: str
) -> None:
    from tests.builders import snapshot

    folder = fara_folder(tmp_path, "t1")
    (folder / "scores").mkdir()
    before = snapshot(folder)
    target = folder / inside

    code, _ = run_cli("show", str(folder), "--html", str(target))

    assert code == 1
    err = capsys.readouterr().err
    assert f"{target}: is inside the trajectory folder {folder}" in err
    assert "Traceback" not in err
    assert snapshot(folder) == before


def test_show_html_of_an_unreadable_folder_exits_1_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    target = tmp_path / "demo.html"

    code, text = run_cli("show", str(folder), "--html", str(target))

    assert code == 1
    assert text == ""
    err = capsys.readouterr().err
    assert f"webeval show: {folder}: not a trajectory folder" in err
    assert "Traceback" not in err
    assert not target.exists()


def test_show_html_names_a_missing_target_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = fara_folder(tmp_path / "runs", "t1")
    target = tmp_path / "no such folder" / "demo.html"
    code, _ = run_cli("show", str(folder), "--html", str(target))
    assert code == 1
    assert (
        f"{target}: cannot be written: the folder {target.parent} does not exist" in capsys.readouterr().err
    )


def test_score_never_reads_a_config_above_the_folder_it_is_given(tmp_path: Path) -> None:
    (tmp_path / "webarena-verified-config.json").write_text("{not json", encoding="utf-8")
    root = tmp_path / "root"
    wav_folder(root, "108")

    code, out = run_cli("score", str(root), "--json")

    (result,) = json.loads(out)["results"]
    assert code == 0
    assert "config" not in (result["reason"] or ""), result


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the server's environment in /proc")
def test_app_hands_the_review_store_to_its_server_and_never_prints_it(tmp_path: Path) -> None:
    store = "postgresql://reviewer:s3cret-pw@127.0.0.1:1/reviews"
    _, port, log, process = _start_app(tmp_path, "--annotations", store)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        environments = [
            Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            for pid in process_group_members(process.pid)
        ]
        assert any(f"WEBEVAL_ANNOTATIONS={store}".encode() in env for env in environments)
        assert "s3cret-pw" not in log.read_text()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def test_score_says_when_no_trajectory_has_an_official_evaluator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fara_folder(tmp_path / "WebTailBench_hf" / "traj", "alltrails_find_23")
    assert main(["score", str(tmp_path)]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == "Nothing scored: none of the 1 trajectories has an official evaluator to run"
