"""What webeval_ui/app_shell.py relies on in Streamlit's internals, checked against the installed version.

When one of these fails after a Streamlit upgrade, read webeval_ui/app_shell.py: either Streamlit no
longer enters its legacy pages-folder mode (then `require_app_shell` and this file can go), or
it does so differently (then the override must follow).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit
from streamlit.commands import navigation
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest

from webeval_ui.app_shell import LEGACY_MODE_FLAG, in_legacy_pages_mode
from webeval_ui.state import Key

APP = Path(__file__).resolve().parents[2] / "app.py"
CHANGED = f"Streamlit {streamlit.__version__} changed what webeval_ui/app_shell.py relies on: "


@pytest.fixture
def flag_reset() -> Iterator[None]:
    """The flag is class-wide: leave it as found."""
    before = getattr(PagesManager, LEGACY_MODE_FLAG, None)
    setattr(PagesManager, LEGACY_MODE_FLAG, None)
    yield
    setattr(PagesManager, LEGACY_MODE_FLAG, before)


def test_the_flag_still_exists() -> None:
    assert hasattr(PagesManager, LEGACY_MODE_FLAG), CHANGED + f"PagesManager.{LEGACY_MODE_FLAG} is gone"


@pytest.mark.parametrize("with_pages", [True, False], ids=["pages-folder", "no-pages-folder"])
def test_a_pages_folder_beside_the_script_sets_the_flag(
    tmp_path: Path, flag_reset: None, *, with_pages: bool
) -> None:
    script = tmp_path / "app.py"
    script.write_text("", encoding="utf-8")
    if with_pages:
        (tmp_path / "pages").mkdir()
    PagesManager(str(script))
    assert in_legacy_pages_mode() is with_pages, (
        CHANGED + f"a new session with{'' if with_pages else 'out'} a pages/ folder no longer sets "
        f"PagesManager.{LEGACY_MODE_FLAG} to {with_pages}"
    )


def test_the_script_runner_runs_page_files_alone_in_that_mode() -> None:
    source = inspect.getsource(script_runner.ScriptRunner)
    assert f"PagesManager.{LEGACY_MODE_FLAG}" in source and hasattr(script_runner, "_mpa_v1"), (
        CHANGED + "the script runner no longer chooses the legacy pages-folder mode (_mpa_v1) by the flag"
    )


def test_st_navigation_leaves_that_mode() -> None:
    source = inspect.getsource(navigation.navigation)
    assert f"PagesManager.{LEGACY_MODE_FLAG} = False" in source, (
        CHANGED + "st.navigation no longer clears the flag, so app.py alone would not leave the mode"
    )


def test_a_first_request_for_a_page_gets_the_app_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The behaviour itself: a first run of a page file (a deep link) enters the legacy mode, the
    override leaves it once, and app.py's sidebar (root picker, navigation) is drawn."""
    root = tmp_path / "root"
    root.mkdir()
    monkeypatch.setenv("WEBEVAL_ROOT", str(root))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page("pages/tasks.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[Key.APP_SHELL_CHECKED], (
        CHANGED + "a first run of a page no longer starts in the legacy pages-folder mode; "
        "require_app_shell may be unnecessary now"
    )
    assert not in_legacy_pages_mode()
    assert at.sidebar.expander[0].label == "Root folder: root"
    assert at.title[0].value == "Tasks"
