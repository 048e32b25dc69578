"""Lists too long for a link: saved once beside the index under their content's name, read back."""

from __future__ import annotations

from pathlib import Path

from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.lists import load_list, save_list


def test_a_saved_list_reads_back_in_its_order_under_a_name_its_content_gives(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "root", tmp_path / "cache")
    keys = [f"run/traj/{n}" for n in (9, 3, 12, 1)] + ["run/traj/é"]
    name = save_list(store, keys)
    assert load_list(store, name) == keys
    assert save_list(store, list(keys)) == name  # the same list, the same name, the file kept
    assert save_list(store, keys[::-1]) != name  # the order is part of the list


def test_a_list_belongs_to_its_root(tmp_path: Path) -> None:
    one = IndexStore(tmp_path / "one", tmp_path / "cache")
    other = IndexStore(tmp_path / "other", tmp_path / "cache")
    name = save_list(one, ["a", "b"])
    assert load_list(other, name) is None


def test_names_that_are_no_list_read_nothing(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "root", tmp_path / "cache")
    name = save_list(store, ["a"])
    for bad in ("0" * 32, "../" + name, name[:-1], name.upper(), ""):
        assert load_list(store, bad) is None
    # A file that is not a list of keys (edited by hand, cut short) reads as no list.
    listed = next((tmp_path / "cache").rglob(f"{name}.json"))
    for text in ('{"a": 1}', "[1, 2]", '["a"'):
        listed.write_text(text)
        assert load_list(store, name) is None
