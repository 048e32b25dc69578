"""The public facades: what `__all__` promises is what the lazy import block delivers."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from webeval_core.support.exports import exported_modules

FACADES = [
    "webeval_core",
    "webeval_core.reading",
    "webeval_core.scoring",
    "webeval_core.runs",
    "webeval_core.review",
    "webeval_core.presentation",
]


@pytest.mark.parametrize("name", FACADES)
def test_all_lists_exactly_the_names_the_import_block_provides(name: str) -> None:
    package = importlib.import_module(name)
    promised = set(package.__all__) - {"__version__"}
    assert promised == set(exported_modules(package.__file__))


@pytest.mark.parametrize("name", FACADES)
def test_every_public_name_resolves_to_the_object_of_its_module(name: str) -> None:
    package = importlib.import_module(name)
    for public, module in exported_modules(package.__file__).items():
        assert getattr(package, public) is getattr(importlib.import_module(module), public), public


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    import webeval_core.reading

    with pytest.raises(AttributeError, match=r"'webeval_core\.reading' has no attribute 'load_trajectroy'"):
        webeval_core.reading.load_trajectroy  # noqa: B018 (the access is what is tested)


def test_reading_a_folder_loads_neither_pandas_nor_the_evaluator() -> None:
    # The facades are lazy so that reading (and `webeval ls`) never pays for the heavy layers.
    probe = (
        "import sys, webeval_core\n"
        "from webeval_core import load_trajectory\n"
        "heavy = [m for m in ('pandas', 'PIL', 'plotly', 'webarena_verified') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
