"""Session-state keys and query parameters are named once, in webeval_ui/state.py."""

from __future__ import annotations

import re
from pathlib import Path

from webeval_ui.state import KEPT_ACROSS_ROOTS, Key, trajectory_link

REPO = Path(__file__).resolve().parents[2]
# A string literal used as a key: `key="..."`, `session_state["..."]`, `query_params["..."]`,
# `.get("...")`/`.pop("...")` on them, or a literal key of a query_params={...} dict.
_LITERAL_KEY = re.compile(
    r"""(\bkey\s*=\s*f?["']|(session_state|query_params)(\[|\.get\(|\.pop\()\s*f?["']|query_params\s*=\s*\{\s*["'])"""
)


def _page_sources() -> list[Path]:
    return [REPO / "app.py", *sorted((REPO / "pages").rglob("*.py"))]


def test_no_page_spells_a_key_as_a_literal() -> None:
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in _page_sources()
        if path.name != "state.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _LITERAL_KEY.search(line)
    ]
    assert not found, "name these keys in webeval_ui/state.py:\n" + "\n".join(found)


def test_keys_are_plain_strings_to_streamlit() -> None:
    assert {str(k) for k in Key} == {k.value for k in Key}
    assert f"{Key.RUN}" == "run"


def test_private_keys_are_not_url_parameters() -> None:
    bound = {Key.RUN, Key.TASK, Key.TAB, Key.STEP, Key.VIEW, Key.SHOWN_RUNS, Key.PAIR, Key.PAIR_STEP}
    assert not any(k.value.startswith("_") for k in bound)
    assert all(k.value.startswith("_") for k in KEPT_ACROSS_ROOTS)


def test_a_trajectory_link_names_run_and_task() -> None:
    assert trajectory_link("runs/a", "108") == {"run": "runs/a", "task": "108"}
