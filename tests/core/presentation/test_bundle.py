"""A bundle of the sample runs: the list is the index's (every trajectory, its result as the app
says it), each readable trajectory has its page and frames, the site is under 35% of the root's
bytes, a trajectory's identical frames are one file, and the same root gives the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Sample
from tests.core.cli.helpers import run_cli
from webeval_core.presentation import bundle
from webeval_core.presentation.bundle import CHUNK
from webeval_core.reading import installed_catalog
from webeval_core.runs.index import build_index
from webeval_core.runs.metrics import headline, trajectory_frame

LIVE_RUN = "runs/WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebTailBench_sample/0"
"""The sample's smallest run with screenshots (4 trajectories of the live web)."""


def read_data(path: Path) -> object:
    """The JSON a data file hands the viewer (`webeval.put(name, data);`)."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("webeval.put(") and text.endswith(");\n")
    return json.loads(text[text.index(",") + 1 : -3])


def folder_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def site(scored_sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bundle") / "site"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder.parent / "cache"))
        code, said = run_cli("bundle", str(scored_sample.root), "-o", str(folder))
    assert code == 0 and "redacted:" in said
    return folder


def test_the_list_is_the_index_and_each_page_is_there(scored_sample: Sample, site: Path) -> None:
    index = build_index(scored_sample.root)
    frame = trajectory_frame(index, installed_catalog())
    runs = read_data(site / "data" / "runs.js")
    assert isinstance(runs, dict) and runs["total"] == len(frame) and runs["chunk"] == CHUNK
    rows = [row for k in range(runs["chunks"]) for row in read_data(site / "data" / f"list-{k}.js")]
    assert sorted((r["run"], r["task_id"], r["result"]) for r in rows) == sorted(
        zip(frame["run"], frame["task_id"], frame["result"], strict=True)
    )
    readable = {s.key for s in index.summaries if not s.unreadable}
    for number, row in enumerate(rows):
        page = site / "data" / "t" / f"{number}.js"
        assert page.is_file() == (row["key"] in readable)
        if page.is_file():
            data = read_data(page)
            assert isinstance(data, dict) and data["row"] == row
            assert all((site / step["image"]).is_file() for step in data["steps"] if step["image"])
    for run in runs["runs"]:  # each run's figures are the app's
        head = headline(frame[frame["run"] == run["key"]])
        assert (run["trajectories"], run["counted"], run["passed"]) == (
            head.trajectories,
            head.counted,
            head.passed,
        )


def test_a_small_site_whose_identical_frames_are_one_file(scored_sample: Sample, site: Path) -> None:
    ratio = folder_bytes(site) / folder_bytes(scored_sample.root)
    assert ratio <= 0.35, ratio
    used = []
    for page in (site / "data" / "t").glob("*.js"):
        data = read_data(page)
        assert isinstance(data, dict)
        used += [step["image"] for step in data["steps"] if step["image"]]
    # Fara repeats a trajectory's last frame, the sample runs share pages: each is one file.
    assert len(set(used)) == len(list((site / "img").iterdir())) < len(used)


def test_the_same_root_gives_the_same_site(
    scored_sample: Sample, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    again = tmp_path / "again"
    assert run_cli("bundle", str(scored_sample.root), "-o", str(again))[0] == 0
    assert _same_files(site, again)
    assert run_cli("bundle", str(scored_sample.root), "-o", str(again))[0] == 1  # not empty: refused
    # Frames encoded anew (not kept from the first bundle) are the same bytes: one run's, twice.
    sites = [tmp_path / "first", tmp_path / "second"]
    for made in sites:
        monkeypatch.setattr(bundle, "_ENCODED", bundle._Encodings(budget=2**30))
        assert run_cli("bundle", str(scored_sample.root), "-o", str(made), "--run", LIVE_RUN)[0] == 0
    assert len(list((sites[0] / "img").iterdir())) > 5 and _same_files(*sites)


def _same_files(site: Path, other: Path) -> bool:
    files = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    return files == sorted(p.relative_to(other) for p in other.rglob("*") if p.is_file()) and all(
        (site / f).read_bytes() == (other / f).read_bytes() for f in files
    )


def test_a_second_bundle_in_one_process_encodes_no_frame_again(
    scored_sample: Sample, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    encoded: list[bytes] = []
    encode = bundle._encoded
    monkeypatch.setattr(bundle, "_encoded", lambda data, *args: encoded.append(data) or encode(data, *args))
    again = tmp_path / "again"
    assert run_cli("bundle", str(scored_sample.root), "-o", str(again))[0] == 0
    assert encoded == []
    frames = sorted(p.name for p in (site / "img").iterdir())
    assert frames == sorted(p.name for p in (again / "img").iterdir())
    assert all((site / "img" / f).read_bytes() == (again / "img" / f).read_bytes() for f in frames)
    # Another quality is another encoding (of the one run's frames bundled).
    q80 = tmp_path / "q80"
    assert (
        run_cli("bundle", str(scored_sample.root), "-o", str(q80), "--run", LIVE_RUN, "--quality", "80")[0]
        == 0
    )
    assert len(encoded) == len(list((q80 / "img").iterdir())) > 0


def test_encodings_kept_stay_within_their_budget_the_least_recently_used_dropped_first() -> None:
    kept = bundle._Encodings(budget=10)
    kept.keep(("a", 60), (b"aaaaa", (1, 1)))
    kept.keep(("b", 60), (b"bbbbb", (1, 1)))
    assert kept.get(("a", 60)) is not None  # a used last: b goes first
    kept.keep(("c", 60), (b"ccccc", (1, 1)))
    assert [kept.get((k, 60)) is not None for k in "abc"] == [True, False, True]
    kept.keep(("huge", 60), (b"h" * 11, (1, 1)))  # larger than the budget: not kept, nothing dropped
    assert [kept.get((k, 60)) is not None for k in ("a", "c", "huge")] == [True, True, False]
