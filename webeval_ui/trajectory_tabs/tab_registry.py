"""THE trajectory page's tabs, each declared once: its label, its module, whether it bears verdicts.

A new tab is one entry here and its module `trajectory_tabs/<module>_tab.py` with
`render(context: TabContext)`; the page, its URL's `tab`, the jump back to the replay and the
tests that walk every tab (blind review, consistency, the read-only browser) read this list.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webeval_ui.trajectory_tabs.context import TabContext


@dataclass(frozen=True)
class Tab:
    """One tab of the trajectory page."""

    label: str
    """What the tab strip says, and the URL's `tab` value."""
    module: str
    """Its module under trajectory_tabs/ without the `_tab` suffix (`replay` -> replay_tab.py)."""
    verdicts: bool
    """It shows the evaluator's or judges' verdicts, scores or failure tags: closed in blind review."""

    def render(self) -> Callable[[TabContext], None]:
        """Its module's `render`, imported now: a tab's module is imported when the tab is opened
        (most pull in pandas, the evaluator's types or the annotation store, none of which the
        replay, the page's first view, needs before its screenshot is drawn).
        """
        view: Callable[[TabContext], None] = importlib.import_module(
            f"webeval_ui.trajectory_tabs.{self.module}_tab"
        ).render
        return view


# In the order the tab strip shows them. The Network tab is evidence, not a verdict: blind, it
# shows the requests and the task's checks without the evaluator's marks (network_tab.render).
TAB_REGISTRY = (
    Tab("Replay", "replay", verdicts=False),
    Tab("Expected vs actual", "expected", verdicts=False),
    Tab("Judges", "judges", verdicts=True),
    Tab("Network", "network", verdicts=False),
    Tab("Evidence", "evidence", verdicts=True),
    Tab("Re-score", "rescore", verdicts=True),
    Tab("Re-judge", "rejudge", verdicts=True),
    Tab("Published", "published", verdicts=True),
    Tab("Annotate", "annotate", verdicts=False),
)
TABS = tuple(tab.label for tab in TAB_REGISTRY)
"""The labels, in order."""
