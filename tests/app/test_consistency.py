"""Every view of one fact says the same thing: every page and every trajectory tab, on the samples
and on agent logs the official CLI judged (its eval_result.json), and the exports, read as a person
reads them. None shows Python's missing values ("None", "nan"), says "not scored" of a trajectory a
judge scored, or writes a time without its zone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import Sample
from tests.core.cli.helpers import run_cli
from tests.harness.agent_logs import agent_log_runs
from webeval_core.presentation import NOT_SCORED
from webeval_core.reading import load_trajectory
from webeval_core.runs.index import build_index
from webeval_ui.page_links import PAGES
from webeval_ui.trajectory_tabs.tab_registry import TABS

OpenPage = Callable[..., AppTest]

MISSING = re.compile(r"(?<![\w-])(None|nan|NaN|NaT)(?=[ \t]*($|[,;:)\]]))", re.MULTILINE)
"""Python's or pandas' missing value written out as a value: a cell, a field's value, the end of a
line ("size None"); the English word in an agent's answer ("None of my orders…") is not one."""
TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?(?P<zone> ?(UTC|[+-]\d{2}:?\d{2}|Z))?")
"""A date and time; `zone` is its zone when one is written."""


@pytest.fixture(scope="session")
def agent_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two runs of agent logs the official CLI judged (tests/harness/agent_logs.py)."""
    return agent_log_runs(tmp_path_factory.mktemp("agent-logs"))


def _read(at: AppTest) -> str:
    """What the main area says, tables and badges included, as a person reads it."""
    parts = [
        *at.main.markdown,
        *at.main.caption,
        *at.main.info,
        *at.main.warning,
        *at.main.text,
        *at.main.title,
        *at.main.subheader,
    ]
    texts = [str(p.value) for p in parts] + [str(m.value) for m in at.main.metric]
    # A grid's missing cell is drawn as its placeholder, "None" when it has none (what a browser
    # shows); a static table's as "None".
    tables = [df.value.to_csv(index=False, na_rep=df.proto.placeholder or "None") for df in at.main.dataframe]
    tables += [t.value.to_csv(index=False, na_rep="None") for t in at.main.table]
    badges = [str(b.proto.body) for b in at.main.get("badge")]
    return "\n".join([*texts, *tables, *badges]).replace("\\", "")


def _problems(text: str) -> list[str]:
    found = [
        f"missing value {m.group(0)!r}: …{text[max(0, m.start() - 40) : m.end() + 20]}…"
        for m in MISSING.finditer(text)
    ]
    found += [f"time without a zone: {m.group(0)!r}" for m in TIME.finditer(text) if not m.group("zone")]
    return found


def _roots(sample: Sample, agent_logs: Path) -> dict[str, Path]:
    return {"samples": sample.root, "agent logs": agent_logs}


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("where", ["samples", "agent logs"])
def test_every_page_says_missing_values_and_times_one_way(
    app: OpenPage, sample: Sample, agent_logs: Path, page: str, where: str
) -> None:
    at = app(PAGES[page], _roots(sample, agent_logs)[where])
    assert _problems(_read(at)) == []


def _scored_trajectories(root: Path) -> Iterator[tuple[str, str]]:
    index = build_index(root)
    for summary in index.summaries:
        if summary.verdict is not None or summary.scores:
            yield summary.run_key, summary.task_id


@pytest.mark.parametrize("tab", TABS)
@pytest.mark.parametrize("where", ["samples", "agent logs"])
def test_every_tab_of_a_judged_trajectory_says_the_verdict_in_force(
    app: OpenPage, sample: Sample, agent_logs: Path, tab: str, where: str
) -> None:
    """The trajectory page's header and each tab, on judged trajectories: no "not scored" beside a
    verdict, no missing value written out, no time without its zone."""
    root = _roots(sample, agent_logs)[where]
    for run, task in list(_scored_trajectories(root))[:3]:
        at = app(PAGES["trajectory"], root, run=run, task=task, tab=tab)
        text = _read(at)
        assert NOT_SCORED not in text, (run, task, tab)
        assert _problems(text) == [], (run, task, tab)


@pytest.mark.parametrize("where", ["samples", "agent logs"])
def test_exports_say_missing_values_and_times_one_way(
    sample: Sample, agent_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = _roots(sample, agent_logs)[where]
    csv_file = tmp_path / "rows.csv"
    assert run_cli("export", str(root), "-o", str(csv_file))[0] == 0
    exported = {"export": csv_file.read_text(encoding="utf-8")}
    for summary in build_index(root).summaries[:6]:
        code, text = run_cli("show", str(summary.path))
        assert code == 0
        exported[f"show {summary.key}"] = text
        verdict = load_trajectory(summary.path)
        if verdict.scores or verdict.eval_result:
            assert f"Verdict:  {NOT_SCORED}" not in text, summary.key
    for name, text in exported.items():
        assert _problems(text) == [], name


def test_the_reader_finds_what_it_looks_for() -> None:
    """The checks above are only as good as this: a missing value written out as a cell, a value or
    a line's end, and a time without its zone, are found; prose and zoned times are not."""
    assert len(_problems("task,score\n108,None\n109,nan\nHAR size None\nstarted: NaT")) == 4
    assert len(_problems("2025-11-10 13:14:35 core.log error")) == 1
    assert (
        _problems("None of my orders has this item. 2025-11-10 21:15:12 UTC, 2025-11-10T21:15:12+00:00") == []
    )


def test_tokens_never_recorded_are_missing_not_zero(app: OpenPage, agent_logs: Path, sample: Sample) -> None:
    """Agent logs keep no token counts: the list leaves the cell empty instead of claiming 0 tokens;
    Fara's folders, which count them, show their counts."""
    for root, recorded in ((agent_logs, False), (sample.root, True)):
        at = app(PAGES["trajectories"], root)
        (tokens,) = [df.value["tokens"] for df in at.main.dataframe if "tokens" in df.value.columns]
        assert (tokens == 0).sum() == 0, root
        assert bool(tokens.notna().any()) is recorded, root


def test_every_grid_and_table_is_drawn_by_the_widgets_that_write_the_missing_word() -> None:
    """A page or tab calling st.dataframe or st.table itself would draw Streamlit's "None" again:
    every one goes through webeval_ui.widgets (grid, selected_rows, text_table)."""
    repo = Path(__file__).resolve().parents[2]
    sources = [*(repo / "webeval_ui").rglob("*.py"), *(repo / "pages").glob("*.py")]
    direct = [
        f"{path.relative_to(repo)}:{number}"
        for path in sources
        if path.name != "widgets.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bst\.(dataframe|table|data_editor)\(", line)
    ]
    assert direct == []
