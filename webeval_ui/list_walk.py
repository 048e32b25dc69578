"""Walk the list: previous / next through the trajectories of the list the user came from.

The list travels in the URL: a table that opens a trajectory adds its filters (the Trajectories
page's query parameters, each renamed by `state.listed_key`, and the `list` marker), so the
Trajectory page rebuilds the same list, says "k of n", steps through it (buttons and keys) and
links back to it; a shared link walks it too.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from webeval_core.presentation import Walk, choice_of, walk_of
from webeval_core.runs import (
    FILTER_PARAMS,
    WalkItem,
    filter_from_params,
    judge_label,
    load_list,
    order_judges,
    run_labels,
    save_list,
)
from webeval_ui.loaders import current_index, current_queries
from webeval_ui.page_links import PAGES
from webeval_ui.review_mode import gated_queries
from webeval_ui.state import Key, listed_key

# The Trajectories page's parameters that describe its list: the core names them (FILTER_PARAMS).
FILTERS = tuple(Key(name) for name in FILTER_PARAMS)
_SHOWN = "shown"  # the marker's value: the URL names a list
MAX_LISTED_KEYS = 200
"""A list named key by key travels in the URL up to this many; a longer one is saved beside the
index (`runs.lists`) and the URL names it."""


def list_params(filters: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """The Trajectory page's parameters naming a list: `filters` renamed, and the marker.

    `filters`: the Trajectories page's parameters (`runs`, `sites`... as its URL holds them); an
    empty dict names every trajectory of the root.
    """
    kept = {listed_key(key): list(filters[key]) for key in FILTERS if filters.get(key)}
    return {**kept, Key.LIST.value: [_SHOWN]}


def keys_list_params(keys: list[str]) -> dict[str, list[str]] | None:
    """The Trajectory page's parameters naming the list `keys` (in its order): the keys themselves,
    or beyond `MAX_LISTED_KEYS` the name of the list saved for them; None for no key.
    """
    if not keys:
        return None
    if len(keys) > MAX_LISTED_KEYS:
        return {listed_key(Key.SAVED): [save_list(current_index().store, keys)], Key.LIST.value: [_SHOWN]}
    return {listed_key(Key.KEYS): keys, Key.LIST.value: [_SHOWN]}


def current_filters() -> dict[str, list[str]]:
    """The Trajectories page's filters in this page's URL."""
    return {key.value: st.query_params.get_all(key) for key in FILTERS if st.query_params.get_all(key)}


def _listed(key: Key) -> list[str]:
    return st.query_params.get_all(listed_key(key))


def _judge() -> str | None:
    """The judge the list was listed by: a bound picker writes its label into the URL, a link the name."""
    judges = order_judges(current_index().store.judges())
    by_label = {judge_label(j): j for j in judges}
    chosen = [j for j in (by_label.get(v, v) for v in _listed(Key.JUDGE)) if j in judges]
    return chosen[0] if chosen else (judges[0] if judges else None)


def _named_keys() -> list[str] | None:
    """The keys of a list named key by key (in the URL, or saved under the name it gives); None for
    a list named by filters. A saved list no longer kept names no key.
    """
    saved = _listed(Key.SAVED)
    if saved:
        return load_list(current_index().store, saved[0]) or []
    return _listed(Key.KEYS) or None


def listed_items() -> tuple[WalkItem, ...]:
    """The trajectories of the list the URL names, in the order its table showed them."""
    named = _named_keys()
    if named == []:
        return ()  # never every trajectory: an empty key filter would select them all
    labels = run_labels(current_index().run_heads)
    criteria = filter_from_params({key: _listed(key) for key in FILTERS}, labels, keys=named)
    items = gated_queries().walk_items(_judge(), criteria)
    # A list named key by key is walked in its own order (a query's ORDER BY, the cell's table).
    if named is None:
        return items
    order = {key: i for i, key in enumerate(named)}
    return tuple(sorted(items, key=lambda item: order[item.key]))


def _open(key: str) -> None:
    """Callback: show the trajectory of summary `key` (run and task pickers), from its first step."""
    members = current_index().summaries_of(current_queries().run_of(key))  # one run's, not the root's
    summary = next(s for s in members if s.key == key)
    st.session_state[Key.RUN] = summary.run_key
    st.session_state[Key.TASK] = choice_of(summary, members)
    st.query_params.pop(Key.STEP, None)


def walk_bar(key: str, *, keys: bool = True, failures: bool = True) -> None:
    """Previous / next / next failure through the URL's list, with "k of n"; nothing without a list.

    `keys`: whether its buttons answer their keyboard shortcuts (off while another view owns the
    keys); `failures`: whether "Next failure" is offered (never in a blind review: it tells).
    """
    if st.query_params.get(Key.LIST) != _SHOWN:
        return
    walk = walk_of(listed_items(), key)
    with st.container(horizontal=True, vertical_alignment="center", key=Key.WALK_BAR):
        if walk is None:
            st.caption("This trajectory is not in the list it was opened from (the list changed).")
        else:
            _buttons(walk, keys, failures)
        if _listed(Key.KEYS) or _listed(Key.SAVED):  # a list named key by key has no page to go back to
            return
        back = {key.value: _listed(key) for key in FILTERS if _listed(key)}
        st.page_link(
            PAGES["trajectories"], label="Back to the list", icon=":material/list:", query_params=back
        )


def _buttons(walk: Walk, keys: bool, failures: bool) -> None:
    st.button(
        "◀ Previous in list",
        key=Key.LIST_PREVIOUS,
        on_click=_open,
        args=(walk.previous,),
        disabled=walk.previous is None,
        shortcut="Shift+Left" if keys else None,
        help="The trajectory before this one in the list (Shift+←).",
    )
    st.markdown(f"**{walk.position} of {walk.total}** in the list")
    st.button(
        "Next in list ▶",
        key=Key.LIST_NEXT,
        on_click=_open,
        args=(walk.next,),
        disabled=walk.next is None,
        shortcut="Shift+Right" if keys else None,
        help="The trajectory after this one in the list (Shift+→).",
    )
    if not failures:
        return
    st.button(
        "Next failure",
        icon=":material/skip_next:",
        key=Key.LIST_NEXT_FAILURE,
        on_click=_open,
        args=(walk.next_failure,),
        disabled=walk.next_failure is None,
        shortcut="F" if keys else None,
        help="The next trajectory in the list that failed or gave no answer (F).",
    )
