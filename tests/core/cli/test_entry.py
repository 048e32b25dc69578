"""`webeval` itself: the parser built from the command modules, `--version`."""

from __future__ import annotations

import pytest

from webeval_core.cli import main
from webeval_core.version import __version__


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"webeval {__version__}\n"
