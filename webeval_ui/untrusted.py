"""Text from input made harmless in the app: escaped for Markdown (inert), and a view that raises
contained to an error box (one hostile trajectory never takes a page down).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import ParamSpec

import streamlit as st

# Every ASCII punctuation character that Markdown, GitHub's extensions (tables, strikethrough,
# autolinks: `www.` and `http:` stop matching once a dot or colon is escaped), HTML (`<`, `&`) or
# Streamlit's own syntax (`:color[...]`, `:material/icon:`, `$math$`) gives a meaning to.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:=&])")


def inert(text: str) -> str:
    """`text` escaped so Streamlit's Markdown shows it literally: no link, image, HTML or styling.

    Every text that did not come from our own code (file, folder, run and reviewer names, task
    ids, agent text, messages quoting them) goes through here before it reaches a place that
    renders Markdown: labels, captions, titles, tabs, expanders, badges, help, st.markdown.
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


P = ParamSpec("P")


def contained(what: str) -> Callable[[Callable[P, None]], Callable[P, None]]:
    """A view that, should it raise, shows an error box naming `what` and lets the page go on.

    One hostile trajectory must not take a page down; st.stop and st.rerun are BaseExceptions
    and pass through.
    """

    def wrap(view: Callable[P, None]) -> Callable[P, None]:
        @functools.wraps(view)
        def run(*args: P.args, **kwargs: P.kwargs) -> None:
            try:
                view(*args, **kwargs)
            except Exception as exc:
                st.error(inert(f"{what} cannot be shown: {type(exc).__name__}: {exc}"))

        return run

    return wrap
