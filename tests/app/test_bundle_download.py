"""The Overview's static bundle: an operator prepares it and downloads a zip that is the site; a
reviewer is told it needs the operator role; the server's --redact profile applies to it."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import Sample
from webeval_core.presentation import bundle_zip, server_redactor
from webeval_core.presentation.redaction import MASK, PROFILE_ENV, REPORT_NAME
from webeval_core.reading import installed_catalog
from webeval_core.runs.index import build_index
from webeval_ui.page_links import PAGES

OpenPage = Callable[..., AppTest]


@pytest.mark.slow
def test_an_operator_downloads_the_chosen_runs_as_a_site(app: OpenPage, sample: Sample) -> None:
    at = app(PAGES["overview"])
    button = next(b for b in at.main.button if b.label == "Prepare static bundle")
    button.click().run()
    assert not at.exception
    (download,) = [b for b in at.main.get("download_button") if "static bundle" in str(b.proto.label)]
    assert str(download.proto.label).startswith("Download static bundle (")


def test_a_reviewer_is_told_it_needs_the_operator(
    app: OpenPage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roles = tmp_path / "roles.toml"
    roles.write_text('[roles]\n"rev" = "reviewer"\n', encoding="utf-8")
    monkeypatch.setenv("WEBEVAL_ROLES", str(roles))
    at = app(PAGES["overview"], reviewer="rev")
    assert not [b for b in at.main.button if b.label == "Prepare static bundle"]
    assert any("static bundle needs the operator role" in c.value for c in at.main.caption)


@pytest.mark.slow
def test_the_servers_profile_applies_to_the_bundle(
    sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    profile = tmp_path / "team.toml"
    profile.write_text('names = ["Magento Admin"]\n', encoding="utf-8")
    monkeypatch.setenv(PROFILE_ENV, str(profile))
    index = build_index(sample.root)
    run = next(r.key for r in index.runs if "fara-7b/demo/WebArenaVerified" in r.key)
    archive = zipfile.ZipFile(
        io.BytesIO(
            bundle_zip(
                index.root_index([run]) if hasattr(index, "root_index") else index,
                installed_catalog(),
                server_redactor(),
            )
        )
    )
    assert {"index.html", "app.js", REPORT_NAME} <= set(archive.namelist())
    pages = b"".join(archive.read(n) for n in archive.namelist() if n.startswith("data/t/"))
    assert b"Magento Admin" not in pages and MASK.encode() in pages
