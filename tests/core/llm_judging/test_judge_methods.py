"""The methods by name: each has its words (the CLI's help and the app's picker), and naming them
costs the parser no import of a method."""

from __future__ import annotations

import subprocess
import sys

import pytest

from webeval_core.llm_judging import JUDGE_METHODS, METHOD_WORDS, make_judge


def test_each_method_has_its_words_and_its_name() -> None:
    assert set(JUDGE_METHODS) == set(METHOD_WORDS)
    for name in JUDGE_METHODS:
        assert make_judge(name).name == name
    with pytest.raises(KeyError, match="there are: outcome, webjudge, rubric"):
        make_judge("gpt_eval")


def test_the_parser_imports_no_method() -> None:
    """Every `webeval` command builds the parser: `judge`'s choices must not load the judges."""
    code = (
        "import sys; from webeval_core.cli.entry import build_parser; build_parser();"
        "print(sorted(m for m in sys.modules"
        " if m.startswith('webeval_core.llm_judging.') or m == 'pydantic'))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['webeval_core.llm_judging.method_names']"
