"""The trajectory page's tabs are one registry: every tab module is in it, each entry's module
draws, and what bears verdicts is said there and nowhere else."""

from __future__ import annotations

from pathlib import Path

from webeval_ui.trajectory_tabs import navigation
from webeval_ui.trajectory_tabs.tab_registry import TAB_REGISTRY, TABS

TABS_FOLDER = Path(navigation.__file__).parent
HELPERS = {"verdict_tab"}  # named for the Judges tab's verdicts it draws, shared by tabs; no tab itself


def test_every_tab_module_is_registered_once() -> None:
    modules = {path.stem.removesuffix("_tab") for path in TABS_FOLDER.glob("*_tab.py")} - {
        name.removesuffix("_tab") for name in HELPERS
    }
    registered = [tab.module for tab in TAB_REGISTRY]
    assert sorted(registered) == sorted(modules)
    assert len(set(TABS)) == len(TABS), "two tabs share a label (the URL's `tab` names one)"


def test_each_entry_renders_its_module() -> None:
    for tab in TAB_REGISTRY:
        view = tab.render()
        assert callable(view) and view.__module__ == f"webeval_ui.trajectory_tabs.{tab.module}_tab"


def test_the_page_keeps_no_list_of_its_own() -> None:
    """The page and the jump back to the replay read the registry; no tab is named in a parallel tuple."""
    page = (TABS_FOLDER.parents[1] / "pages" / "trajectory.py").read_text(encoding="utf-8")
    assert "TAB_REGISTRY" in page
    for tab in TAB_REGISTRY:
        assert f'"{tab.module}"' not in page, f"pages/trajectory.py names the {tab.label} tab's module"
    assert navigation.TABS is TABS


def test_the_verdict_tabs_are_those_that_show_verdicts() -> None:
    verdicts = {tab.label for tab in TAB_REGISTRY if tab.verdicts}
    assert verdicts == {"Judges", "Evidence", "Re-score", "Re-judge", "Published"}
