"""The names harnesses write, and the checks the index's walk makes of a folder's names."""

from __future__ import annotations

from webeval_core.reading.markers import ANSWER_SUFFIX, any_name_ends_with


def test_a_name_ends_with_the_suffix_only_where_it_ends() -> None:
    assert any_name_ends_with({"log.txt", "7_final_answer.json"}, ANSWER_SUFFIX)
    assert any_name_ends_with(["_answer.json"], ANSWER_SUFFIX)
    # The suffix inside a name, or a name that is only part of it, is no answer file.
    assert not any_name_ends_with({"7_answer.json.bak", "x_answer.jso", "n"}, ANSWER_SUFFIX)
    assert not any_name_ends_with({"answer.json"}, ANSWER_SUFFIX)
    assert not any_name_ends_with(set(), ANSWER_SUFFIX)
    # Names that joined would spell it across their border do not.
    assert not any_name_ends_with(["a_ans", "wer.json"], ANSWER_SUFFIX)
