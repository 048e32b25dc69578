"""The app's pages are one registry: every page script is in it once, under its own address."""

from __future__ import annotations

from pathlib import Path

from webeval_ui.page_links import PAGE_REGISTRY, PAGES

REPO = Path(__file__).resolve().parents[2]


def test_every_page_script_is_registered_once() -> None:
    scripts = sorted(f"pages/{p.name}" for p in (REPO / "pages").glob("*.py") if p.stem != "__init__")
    assert sorted(page.script for page in PAGE_REGISTRY.values()) == scripts
    assert {name: page.script for name, page in PAGE_REGISTRY.items()} == PAGES


def test_addresses_and_titles_are_unique() -> None:
    pages = list(PAGE_REGISTRY.values())
    assert len({page.url_path for page in pages}) == len(pages)
    assert len({page.title for page in pages}) == len(pages)
    assert "overview" not in {page.url_path for page in pages}, "app.py serves /overview as a redirect"


def test_app_py_builds_its_navigation_from_the_registry() -> None:
    app = (REPO / "app.py").read_text(encoding="utf-8")
    assert "PAGE_REGISTRY" in app
    for page in PAGE_REGISTRY.values():
        assert page.script not in app, f"app.py names {page.script} beside the registry"
