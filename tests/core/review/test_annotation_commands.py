"""`webeval annotations export | import | agreement | list` on the scored sample, against both stores."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import Sample
from tests.harness.builders import snapshot
from tests.harness.postgres_server import store_arguments
from tests.harness.verifier_files import JUDGE, SECOND, verifier_root
from webeval_core.cli import main
from webeval_core.review.annotation_db import open_store
from webeval_core.review.annotations import Annotation, Stage
from webeval_core.review.judge_outcomes import OFFICIAL, judge_verdicts
from webeval_core.review.legacy import legacy_file
from webeval_core.review.queues import ReviewQueue, read_queues, save_queue
from webeval_core.review.store_opener import open_annotations
from webeval_core.runs.index import build_index
from webeval_core.runs.viewing import OUTSIDE_REVIEW


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def _items(sample: Sample) -> list[tuple[str, str]]:
    judged = judge_verdicts(build_index(sample.root))
    return sorted(item for item, verdicts in judged.items() if OFFICIAL in verdicts)


def _write_rows(path: Path, rows: list[dict[str, object]]) -> Path:
    if path.suffix == ".csv":
        with path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(dict.fromkeys(k for row in rows for k in row)))
            writer.writeheader()
            writer.writerows(rows)
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _row(item: tuple[str, str], reviewer: str, outcome: str, **extra: object) -> dict[str, object]:
    return {
        "run": item[0],
        "task_id": item[1],
        "reviewer": reviewer,
        "stage": "blind",
        "outcome": outcome,
    } | extra


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_import_is_idempotent_and_export_gives_the_columns_back(
    scored_sample: Sample, location: str, tmp_path: Path, suffix: str
) -> None:
    before = snapshot(scored_sample.root)
    one, two = _items(scored_sample)[:2]
    rows = [
        _row(one, "ann", "success", justification="fine, *really*", environment_problem="no"),
        _row(one, "bob", "failure", process="unsafe", task="ambiguous", created="2026-01-02T03:04:05Z"),
        _row(two, "ann", "unsure", **{OFFICIAL: "success"}),  # a judge column: ignored
    ]
    file = _write_rows(tmp_path / f"in{suffix}", rows)
    root = str(scored_sample.root)
    assert cli("annotations", "import", root, str(file), *store_arguments(location)) == (
        0,
        f"Imported 3 new annotation(s) of 3 row(s) from {file}\n",
    )
    code, text = cli("annotations", "import", root, str(file), *store_arguments(location))
    assert (code, text.split(" new")[0]) == (0, "Imported 0")

    code, text = cli("annotations", "export", root, "--format", "jsonl", *store_arguments(location))
    assert code == 0
    exported = [json.loads(line) for line in text.splitlines()]
    assert list(exported[0])[:10] == [
        "run",
        "task_id",
        "reviewer",
        "stage",
        "outcome",
        "process",
        "task",
        "environment_problem",
        "justification",
        "created",
    ]
    assert OFFICIAL in exported[0]
    bob = next(r for r in exported if r["reviewer"] == "bob")
    assert (bob["process"], bob["task"], bob["created"]) == ("unsafe", "ambiguous", "2026-01-02T03:04:05Z")
    ann = next(r for r in exported if r["reviewer"] == "ann" and r["task_id"] == one[1])
    assert (ann["justification"], ann["environment_problem"]) == ("fine, *really*", False)
    assert snapshot(scored_sample.root) == before  # annotations never touch the runs


def test_a_csv_export_is_formula_safe_and_imports_back_as_nothing_new(
    scored_sample: Sample, location: str, tmp_path: Path
) -> None:
    (one,) = _items(scored_sample)[:1]
    rows = [_row(one, "=cmd", "failure", justification='=HYPERLINK("https://example.invalid","x")')]
    root = str(scored_sample.root)
    assert (
        cli(
            "annotations",
            "import",
            root,
            str(_write_rows(tmp_path / "in.jsonl", rows)),
            *store_arguments(location),
        )[0]
        == 0
    )

    out = tmp_path / "out.csv"
    assert cli("annotations", "export", root, "-o", str(out), *store_arguments(location))[0] == 0
    cells = [cell for row in csv.reader(out.open(newline="")) for cell in row]
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)
    assert "'=cmd" in cells

    code, text = cli("annotations", "import", root, str(out), *store_arguments(location))
    assert (code, text.split(" new")[0]) == (0, "Imported 0")


def test_a_malformed_file_is_rejected_by_line_and_nothing_is_imported(
    scored_sample: Sample, location: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    item = _items(scored_sample)[0]
    file = tmp_path / "bad.jsonl"
    lines = [
        json.dumps(_row(item, "ann", "success")),
        json.dumps(_row(item, "bob", "maybe")),
        "{not json",
        json.dumps(_row(("no-such-run", "1"), "cat", "failure")),
        json.dumps(_row(item, "dan", "failure", environment_problem="perhaps")),
    ]
    file.write_text("\n".join(lines) + "\n")
    code, _ = cli("annotations", "import", str(scored_sample.root), str(file), *store_arguments(location))
    err = capsys.readouterr().err
    assert code == 1
    assert f"{file}:2: outcome: Input should be 'success', 'failure' or 'unsure'" in err
    assert f"{file}:3: not JSON" in err
    assert f"{file}:4: no trajectory of task '1' in run 'no-such-run' under the root" in err
    assert f"{file}:5: environment_problem: expected yes or no, not 'perhaps'" in err
    assert "nothing imported" in err
    assert open_store(location).annotations(OUTSIDE_REVIEW) == []


def test_agreement_json_has_reviewer_pairs_and_judges(
    scored_sample: Sample, location: str, tmp_path: Path
) -> None:
    judged = judge_verdicts(build_index(scored_sample.root))
    items = _items(scored_sample)[:4]
    truth = {item: judged[item][OFFICIAL] for item in items}
    rows = [_row(item, "ann", truth[item]) for item in items]  # ann agrees with the evaluator
    rows += [_row(item, "bob", "success") for item in items]
    file = _write_rows(tmp_path / "two.jsonl", rows)
    root = str(scored_sample.root)
    assert cli("annotations", "import", root, str(file), *store_arguments(location))[0] == 0
    code, text = cli("annotations", "agreement", root, "--json", *store_arguments(location))
    assert code == 0
    report = json.loads(text)
    (pair,) = report["reviewers"]
    assert {k: pair[k] for k in ("a", "b", "stage", "n")} == {
        "a": "ann",
        "b": "bob",
        "stage": "blind",
        "n": 4,
    }
    official = next(j for j in report["judges"] if j["judge"] == OFFICIAL)
    assert set(official) == {
        *("judge", "stage", "n", "kappa", "accuracy", "precision", "recall", "f1", "false_positive_rate"),
        *("ties", "settled", "rule"),
    }
    # A tie (ann failure, bob success) has no majority: only the items ann passed count, and agree;
    # the ties left out are counted beside the figures.
    passed = sum(1 for item in items if truth[item] == "success")
    assert (official["n"], official["ties"], official["rule"]) == (passed, 4 - passed, "majority")
    if passed:
        assert official["accuracy"] == 1.0
    code, text = cli("annotations", "agreement", root, *store_arguments(location))
    assert code == 0 and "ann ~ bob: n=4" in text
    assert (f"left out: {4 - passed} reviewer ties" in text) == (passed < 4)
    # ann as adjudicator settles every tie with her outcome: all four items count.
    code, text = cli(
        "annotations", "agreement", root, "--json", "--adjudicator", "ANN", *store_arguments(location)
    )
    official = next(j for j in json.loads(text)["judges"] if j["judge"] == OFFICIAL and j["stage"] == "blind")
    assert (official["n"], official["ties"], official["settled"]) == (4, 0, 4 - passed)
    assert official["rule"] == "majority, ties settled by ANN" and official["accuracy"] == 1.0


def test_cuaverifierbench_export_writes_its_two_tables(
    scored_sample: Sample, location: str, tmp_path: Path
) -> None:
    judged = judge_verdicts(build_index(scored_sample.root))
    one, two = _items(scored_sample)[:2]
    rows = [
        _row(one, "ann", "failure", process="unsafe", justification="=SUM(A1)"),
        _row(one, "ann", "success", stage="informed"),
        _row(two, "bob", "success"),
    ]
    file = _write_rows(tmp_path / "in.jsonl", rows)
    root = str(scored_sample.root)
    assert cli("annotations", "import", root, str(file), *store_arguments(location))[0] == 0
    out = tmp_path / "bench"
    code, text = cli(
        "annotations",
        "export",
        root,
        "--format",
        "cuaverifierbench",
        "-o",
        str(out),
        *store_arguments(location),
    )
    assert code == 0 and text.count("Wrote ") == 2
    with (out / "trajectories.csv").open(newline="") as handle:
        trajectories = list(csv.DictReader(handle))
    assert len(trajectories) == len(judged)  # every trajectory, reviewed or not
    first = next(t for t in trajectories if (t["run"], t["task_id"]) == one)
    assert first["trajectory_id"] == f"{one[0]}/{one[1]}"
    assert first[f"{OFFICIAL}_outcome"] == judged[one][OFFICIAL]
    with (out / "annotations.csv").open(newline="") as handle:
        notes = list(csv.DictReader(handle))
    assert list(notes[0])[:8] == [
        *("trajectory_id", "task_id", "run", "annotator", "stage", "outcome", "process", "justification"),
    ]
    labelled = sorted((n["annotator"], n["stage"], n["outcome"], n["process"]) for n in notes)
    assert labelled == [
        ("ann", "UV-blind", "failure", "unsafe"),
        ("ann", "UV-informed", "success", ""),
        ("bob", "UV-blind", "success", ""),
    ]
    # A formula-like justification is quoted for spreadsheets, as in every CSV export.
    assert next(n for n in notes if n["process"] == "unsafe")["justification"] != "=SUM(A1)"


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_the_taxonomy_fields_go_out_and_come_back(
    scored_sample: Sample, location: str, tmp_path: Path, suffix: str
) -> None:
    (one,) = _items(scored_sample)[:1]
    rows = [_row(one, "ann", "failure", failing_steps="5, 4", error_codes="2.1,3.2", task_codes="7.1")]
    root = str(scored_sample.root)
    assert (
        cli(
            "annotations",
            "import",
            root,
            str(_write_rows(tmp_path / f"in{suffix}", rows)),
            *store_arguments(location),
        )[0]
        == 0
    )
    (stored,) = open_store(location).annotations(OUTSIDE_REVIEW)
    assert (stored.failing_steps, stored.error_codes, stored.task_codes) == ((4, 5), ("2.1", "3.2"), ("7.1",))
    out = tmp_path / f"out{suffix}"
    assert (
        cli(
            "annotations", "export", root, "--format", suffix[1:], "-o", str(out), *store_arguments(location)
        )[0]
        == 0
    )
    text = out.read_text()
    exported = (
        next(csv.DictReader(io.StringIO(text))) if suffix == ".csv" else json.loads(text.splitlines()[0])
    )
    assert (exported["failing_steps"], exported["error_codes"], exported["task_codes"]) == (
        "4,5",
        "2.1,3.2",
        "7.1",
    )
    code, _ = cli("annotations", "import", root, str(out), *store_arguments(location))
    assert (
        code == 0 and len(open_store(location).annotations(OUTSIDE_REVIEW)) == 1
    )  # the same judgement: not stored again


def test_agreement_compares_reviewers_with_a_verifiers_first_failure(location: str, tmp_path: Path) -> None:
    root = verifier_root(tmp_path)
    item = next(i for i in judge_verdicts(build_index(root)) if i[1] == SECOND)  # the verifier: step 4, 2.1
    note = Annotation(
        run=item[0], task_id=item[1], reviewer="ann", stage="blind", outcome="failure",
        failing_steps=(4,), error_codes=("3.1",),
    )  # fmt: skip
    open_store(location).add(note)
    code, text = cli("annotations", "agreement", str(root), "--json", *store_arguments(location))
    assert code == 0
    (figures,) = json.loads(text)["failures"]
    assert (figures["judge"], figures["stage"], figures["has_failure"], figures["category"]) == (
        JUDGE, "blind", 1.0, 0.0,
    )  # fmt: skip
    assert (figures["step_n"], figures["step_exact"]) == (1, 1.0)
    code, text = cli("annotations", "agreement", str(root), *store_arguments(location))
    assert "has failure=1.000 (n=1) category=0.000 (n=1)" in text


def test_cuaverifierbench_export_needs_a_folder(scored_sample: Sample, location: str) -> None:
    code, _ = cli("annotations", "export", str(scored_sample.root), "--format", "cuaverifierbench")
    assert code == 2


def test_list_shows_names_as_plain_text(scored_sample: Sample, tmp_path: Path) -> None:
    location = str(tmp_path / "s.sqlite")
    item = _items(scored_sample)[0]
    file = _write_rows(tmp_path / "x.jsonl", [_row(item, "ann\x1b[31m", "success", justification="a\nb")])
    assert (
        cli("annotations", "import", str(scored_sample.root), str(file), *store_arguments(location))[0] == 0
    )
    code, text = cli("annotations", "list", str(scored_sample.root), *store_arguments(location))
    assert code == 0
    assert "\x1b" not in text and "ann\\x1b[31m" in text and "a\\nb" in text
    # Fields are separated by real tabs (only the fields' own control characters are escaped).
    fields = text.splitlines()[0].split("\t")
    assert fields[1:] == [item[0], item[1], "ann\\x1b[31m", "blind", "success", "a\\nb"]


def test_an_unreachable_store_is_one_line_without_the_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "postgresql://someone:hunter2-secret@127.0.0.1:9/none"
    code, _ = cli("annotations", "list", str(tmp_path), *store_arguments(url))
    err = capsys.readouterr().err
    assert code == 1
    assert "postgresql://someone:***@127.0.0.1:9/none" in err
    assert "hunter2" not in err


def test_a_password_on_the_command_line_is_refused_with_the_ways_to_give_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34, item 8: a URL's password would be in `ps` for the command's (a server's) life."""
    url = "postgresql://someone:hunter2-secret@127.0.0.1:9/none"
    for command in (
        ("annotations", "list", str(tmp_path)),
        ("export", str(tmp_path)),
        ("app", str(tmp_path)),
    ):
        code, _ = cli(*command, "--annotations", url)
        err = capsys.readouterr().err
        assert code == 2, command
        assert "WEBEVAL_ANNOTATIONS" in err and "--annotations-file" in err and ".pgpass" in err
        assert "hunter2" not in err
    empty = tmp_path / "empty.url"
    empty.write_text("\n", encoding="utf-8")
    code, _ = cli("annotations", "list", str(tmp_path), "--annotations-file", str(empty))
    assert code == 2 and "empty.url: empty" in capsys.readouterr().err


def test_old_json_lines_are_imported_once_and_left_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    root = tmp_path / "runs"
    root.mkdir()
    old = legacy_file(root)
    old.parent.mkdir(parents=True)
    lines = [
        {"run_key": "r", "task_id": "7", "label": "agent right, evaluator wrong", "note": "n",
         "annotator": "ann", "verdict_source": "webarena-verified-1", "verdict_status": "failure",
         "created": "2026-01-01T00:00:00Z"},
        {"run_key": "r", "task_id": "8", "label": "task ambiguous", "created": "2026-01-01T00:01:00Z"},
        {"run_key": "r", "task_id": "9", "label": "verdict correct", "verdict_status": "success",
         "created": "2026-01-01T00:02:00Z"},
    ]  # fmt: skip
    old.write_text("".join(json.dumps(line) + "\n" for line in lines) + "{truncated\n")
    before = old.read_bytes()
    location = str(tmp_path / "store.sqlite")
    store, problems = open_annotations(location, root)
    assert [(p.line, p.message.split(":")[0]) for p in problems] == [(4, "not imported")]
    saved = store.annotations(OUTSIDE_REVIEW)
    assert [(a.task_id, a.reviewer, a.stage, a.outcome, a.task) for a in saved] == [
        ("7", "ann", "informed", "success", None),
        ("8", "anonymous", "informed", "unsure", "ambiguous"),
        ("9", "anonymous", "informed", "success", None),
    ]
    assert open_annotations(location, root)[0].annotations(OUTSIDE_REVIEW) == saved  # not imported twice
    assert old.read_bytes() == before


def test_two_writers_and_a_cli_import_at_once_lose_nothing(
    scored_sample: Sample, location: str, tmp_path: Path
) -> None:
    import subprocess
    import sys
    import threading

    items = _items(scored_sample)[:20]
    rows = [
        _row(item, "importer", "failure", created=f"2026-02-01T00:00:{n:02d}Z")
        for n, item in enumerate(items)
    ]
    file = _write_rows(tmp_path / "many.jsonl", rows)
    open_store(location).close()
    command = [sys.executable, "-m", "webeval_core.cli", "annotations", "import", str(scored_sample.root)]
    importer = subprocess.Popen(
        [*command, str(file), *store_arguments(location)], cwd=Path(__file__).parents[3]
    )

    def session(name: str) -> None:  # what an app session's saves do
        store = open_store(location)
        for item in items:
            store.add(
                Annotation(run=item[0], task_id=item[1], reviewer=name, stage="blind", outcome="success")
            )

    sessions = [threading.Thread(target=session, args=(name,)) for name in ("ann", "bob")]
    for thread in sessions:
        thread.start()
    for thread in sessions:
        thread.join()
    assert importer.wait(timeout=120) == 0
    saved = open_store(location).annotations(OUTSIDE_REVIEW)
    assert sorted(Counter(a.reviewer for a in saved).items()) == [("ann", 20), ("bob", 20), ("importer", 20)]


def test_annotations_of_a_root_that_is_a_run_are_found_however_the_root_is_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20 (9): an annotation saved under the app's run key is listed by the CLI with another
    cache, the root typed relative, with a trailing slash or through a link."""
    from tests.harness.builders import wav_folder
    from webeval_core.review.annotations import Draft
    from webeval_core.review.judging import save_judgement
    from webeval_core.runs.index_db import IndexStore
    from webeval_core.runs.refresh import refresh_index
    from webeval_core.runs.view import IndexView

    run = tmp_path / "official-run"
    wav_folder(run, "7")
    (tmp_path / "link").symlink_to(run, target_is_directory=True)
    location = str(tmp_path / "store.sqlite")
    app_index = IndexStore(run, tmp_path / "app-cache")  # as the app's index names the run
    refresh_index(app_index, workers=1)
    (head,) = IndexView(app_index).run_heads
    save_judgement(
        open_store(location),
        Draft(run=head.key, task_id="7", reviewer="ann", stage="blind", outcome="success"),
    )
    monkeypatch.chdir(tmp_path)
    for typed in ("official-run", "official-run/", str(run), "link"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{typed.replace('/', '_')}"))
        code, text = cli("annotations", "list", typed, *store_arguments(location))
        assert code == 0 and "\tofficial-run\t7\tann\tblind\tsuccess" in text, (typed, text)


def test_rename_reviewer_moves_a_typed_name_and_says_what_both_names_judged(
    scored_sample: Sample, location: str, tmp_path: Path
) -> None:
    root = str(scored_sample.root)
    first, second = _items(scored_sample)[:2]
    rows = [
        _row(first, "Ann", "failure", created="2026-11-20T10:00:00+00:00"),
        _row(second, "ann", "success", created="2026-11-20T10:01:00+00:00"),
        _row(first, "ann@example.org", "success", created="2026-11-21T10:00:00+00:00"),
    ]
    file = _write_rows(tmp_path / "x.jsonl", rows)
    assert cli("annotations", "import", root, str(file), *store_arguments(location))[0] == 0
    store = open_store(location)
    save_queue(store, ReviewQueue(name="pair", stage=Stage.BLIND, reviewers=("ANN", "bob")))
    save_queue(store, ReviewQueue(name="open", stage=Stage.BLIND))

    code, text = cli(
        "annotations", "rename-reviewer", root, "ann", "ann@example.org", *store_arguments(location)
    )

    assert code == 0
    assert text.splitlines() == [
        "Renamed 'ann' to 'ann@example.org': 2 annotation(s), 0 record(s) of what was shown",
        "  queues assigned to 'ann@example.org' now: pair",
        f"  {first[0]} {first[1]}: judged under both names (blind); the first counts, made blind",
    ]
    assert {q.name: q.reviewers for q in read_queues(store).values()} == {
        "open": (),
        "pair": ("ann@example.org", "bob"),
    }
    export = cli("annotations", "export", root, *store_arguments(location), "--format", "jsonl")[1]
    current = {
        (r["run"], r["task_id"]): (r["reviewer"], r["outcome"]) for r in map(json.loads, export.splitlines())
    }
    assert current == {first: ("ann@example.org", "failure"), second: ("ann@example.org", "success")}
    again = cli("annotations", "rename-reviewer", root, "ann", "ann@example.org", *store_arguments(location))
    assert again == (1, "No annotation or queue under the name 'ann': nothing renamed\n")
