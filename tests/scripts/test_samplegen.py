"""The sample generator stays small and its recipes stay data that does not repeat itself.

Issue 21: `scripts/samplegen/` was 5.4k lines, a fifth of the repository, most of it site recipes
repeating one another's shapes. Recipes are now data (`scripts/samplegen/data/recipes/*.toml`) read by
one generator; these checks keep it that way. That `sample_runs/` is what the generator writes, with
the verdicts it claims, is tests/test_sample_runs.py.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLEGEN = ROOT / "scripts" / "samplegen"
# Lines of Python, blank lines and docstrings included: a guard against recipes turning into code
# (2000 before the live-web run; 2100 before the painter was split into a module per site; 2200
# before the other harnesses' runs, harness_runs.py: their writers are the tests', not counted here).
LINE_BUDGET = 2450
WINDOW = 11  # a block of more than 10 lines


def _code_files() -> list[Path]:
    return [ROOT / "scripts" / "make_sample_runs.py", *sorted(SAMPLEGEN.rglob("*.py"))]


def _recipe_files() -> list[Path]:
    """The recipe files (TOML data), and any recipe module someone writes in Python again."""
    recipes = SAMPLEGEN / "data" / "recipes"
    return sorted([*recipes.glob("*.toml"), *recipes.rglob("*.py"), *SAMPLEGEN.glob("recipes/**/*.py")])


def _normalised(path: Path) -> list[str]:
    """The file's lines with whitespace collapsed, blank lines left out."""
    lines = (" ".join(line.split()) for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


def repeated_blocks(files: list[Path], window: int = WINDOW) -> list[tuple[str, list[str]]]:
    """Blocks of `window` normalised lines found in more than one file: (first line, where)."""
    seen: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for path in files:
        lines = _normalised(path)
        for start in range(len(lines) - window + 1):
            block = tuple(lines[start : start + window])
            places = seen[block]
            if not any(p.startswith(f"{path.name}:") for p in places):
                places.append(f"{path.name}:{start + 1}")
    return [(block[0], places) for block, places in seen.items() if len(places) > 1]


def test_recipe_files_are_found() -> None:
    names = {p.stem for p in _recipe_files()}
    assert {"shopping", "shopping_admin", "reddit", "gitlab", "openstreetmap", "wikipedia"} <= names


def test_no_block_of_more_than_ten_lines_is_repeated_between_recipes() -> None:
    repeated = repeated_blocks(_recipe_files())
    assert not repeated, "\n".join(f"{where}: {first}" for first, where in repeated[:20])


def test_no_block_of_more_than_ten_lines_is_repeated_between_generator_modules() -> None:
    repeated = repeated_blocks(_code_files())
    assert not repeated, "\n".join(f"{where}: {first}" for first, where in repeated[:20])


def test_the_check_finds_a_repeated_block(tmp_path: Path) -> None:
    block = [f"  {{click = 'item {i}', why = 'step {i}'}}," for i in range(WINDOW)]
    (tmp_path / "a.toml").write_text("\n".join(["[a]", *block, "x = 1"]), encoding="utf-8")
    (tmp_path / "b.toml").write_text("\n".join(["[b]", "", *(re.sub(" +", "   ", s) for s in block)]))
    (tmp_path / "c.toml").write_text("\n".join(block[:-1]), encoding="utf-8")  # 10 lines: allowed
    found = repeated_blocks([tmp_path / n for n in ("a.toml", "b.toml", "c.toml")])
    assert [where for _, where in found] == [["a.toml:2", "b.toml:2"]]


def test_the_generator_stays_under_its_line_budget() -> None:
    counts = {
        p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in _code_files()
    }
    total = sum(counts.values())
    biggest = sorted(counts.items(), key=lambda kv: -kv[1])[:5]
    assert total < LINE_BUDGET, f"{total} lines of Python (budget {LINE_BUDGET}); biggest: {biggest}"


def test_a_mistake_in_a_recipe_file_names_the_file(tmp_path: Path) -> None:
    """Adding a recipe is editing data: a wrong step or name must say where it is."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from samplegen.plan import RecipeFile
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    path = tmp_path / "mine.toml"
    path.write_text(
        '[views.home]\nurl = "__SHOPPING__/"\ntitle = "Home"\nkind = "home"\n\n'
        '[[task]]\nid = 1\nfara = "right_answer"\nsom = "right_answer"\nstart = "home"\n'
        'steps = [{click = "Cart", view = "cart"}, {press = "Enter"}, "to_cart"]\n',
        encoding="utf-8",
    )
    recipes = RecipeFile(path)
    for bad, error in (([{"click": "Cart", "view": "cart"}], KeyError), ([{"press": "Enter"}], ValueError)):
        with pytest.raises(error, match=re.escape("mine.toml")):
            recipes.acts(bad)
    with pytest.raises(KeyError, match=re.escape("mine.toml: no step list named 'to_cart'")):
        recipes.acts(["to_cart"])
    assert recipes.acts([{"scroll": "down", "why": "More."}])[0].kind == "scroll_down"
