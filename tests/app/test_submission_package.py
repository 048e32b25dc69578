"""AppTest: a submission package made by the official packager opens as a run, its problems listed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.core.reading.test_submission import make_package, run_output_with_problems

OpenPage = Callable[..., AppTest]


def test_the_package_run_lists_what_the_packager_left_out(app: OpenPage, tmp_path: Path) -> None:
    package = make_package(run_output_with_problems(tmp_path / "run"), tmp_path / "out", tar=False)
    at = app("pages/trajectories.py", package.parent)
    label = "Submission package pkg: 2 task(s) packaged, 4 left out by the packager"
    assert label in [e.label for e in at.expander]
    issues = at.dataframe[0].value
    assert issues.set_index("problem")["task ids"].to_dict() == {
        "agent_response.json missing": "134",
        "network trace missing": "133",
        "network trace invalid or empty": "135",
        "agent_response.json empty (packaged)": "136",
        "task id not in the dataset (left out)": "99999",
    }
    assert issues.set_index("problem")["left out"].to_dict()["agent_response.json empty (packaged)"] is False
    trajectories = at.dataframe[1].value
    assert len(trajectories) == 3  # 132, 135 and 136: the folders the package holds
