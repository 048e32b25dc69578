"""Fixtures of the scoring tests: the official verdict computed independently, and the sample config."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.harness.har_builders import CONFIG
from webeval_core.scoring import UrlConfig


@pytest.fixture(scope="module")
def official() -> Callable[[Path], dict[str, Any]]:
    """The official verdict for a WA-V folder, computed as its CLI does (paths in)."""
    from webarena_verified.api import WebArenaVerified
    from webarena_verified.types.config import WebArenaVerifiedConfig

    wa = WebArenaVerified(config=WebArenaVerifiedConfig.model_validate(CONFIG))

    def run(folder: Path) -> dict[str, Any]:
        result = wa.evaluate_task(
            task_id=int(folder.name),
            agent_response=folder / "agent_response.json",
            network_trace=folder / "network.har",
        )
        return result.model_dump(mode="json", exclude_none=True)

    return run


@pytest.fixture
def config() -> UrlConfig:
    return UrlConfig.from_dict(CONFIG)
