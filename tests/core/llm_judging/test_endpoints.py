"""Profiles from a TOML file: fields checked, the key from the environment or a file only."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.scripted_llm import KEY, KEY_ENV
from webeval_core.llm_judging import Provider, load_profile, load_profiles
from webeval_core.llm_judging.endpoints import NO_KEY, PROFILES_ENV, profiles_path
from webeval_core.support.diagnostics import UnreadableError


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "judges.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_profile_reads_every_field_and_its_key_from_the_environment(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f"""[profiles.azure]
base_url = "https://example.openai.azure.com"
model = "gpt-4o"
provider = "azure"
api_key_env = "{KEY_ENV}"
json_mode = true
image_detail = "low"
image_quality = 70
max_images = 7
temperature = 0.2
seed = 7
max_tokens = 512
timeout_s = 30
concurrency = 16
requests_per_minute = 600
price_input_per_mtok = 2.5
price_output_per_mtok = 10
""",
    )
    profile = load_profile("azure", path)
    assert profile.provider is Provider.AZURE
    assert (profile.max_images, profile.image_detail, profile.image_quality, profile.seed) == (
        7,
        "low",
        70,
        7,
    )
    assert profile.api_key() == KEY
    assert profile.cost(1_000_000, 100_000) == pytest.approx(3.5)


def test_the_key_from_a_file_and_none_for_a_local_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "key").write_text("from-a-file\n")
    path = _write(
        tmp_path,
        f"""[profiles.filed]
base_url = "http://127.0.0.1:8000/v1"
model = "m"
api_key_file = "{tmp_path / "key"}"
[profiles.ollama]
base_url = "http://127.0.0.1:11434/v1"
model = "qwen2.5vl"
[profiles.unset]
base_url = "http://127.0.0.1:1/v1"
model = "m"
api_key_env = "WEBEVAL_NOT_SET_ANYWHERE"
""",
    )
    profiles = load_profiles(path)
    assert profiles["filed"].api_key() == "from-a-file"
    assert profiles["ollama"].api_key() == NO_KEY
    monkeypatch.delenv("WEBEVAL_NOT_SET_ANYWHERE", raising=False)
    with pytest.raises(UnreadableError, match="WEBEVAL_NOT_SET_ANYWHERE is not set"):
        profiles["unset"].api_key()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not toml [", "is not TOML"),
        ("[other]\nx = 1\n", r"has no \[profiles.NAME\] table"),
        ('[profiles.p]\nmodel = "m"\n', "profiles.p.base_url: Field required"),
        ('[profiles.p]\nbase_url = "u"\nmodel = "m"\nmax_images = 0\n', "profiles.p.max_images"),
        ('[profiles.p]\nbase_url = "u"\nmodel = "m"\napi_key = "sk-inline"\n', "profiles.p.api_key"),
    ],
)
def test_a_bad_file_is_named_with_what_is_wrong(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(UnreadableError, match=said) as caught:
        load_profiles(_write(tmp_path, text))
    assert "judges.toml" in str(caught.value)
    assert "sk-inline" not in str(caught.value)


def test_an_unknown_profile_names_those_there_are(tmp_path: Path) -> None:
    path = _write(tmp_path, '[profiles.one]\nbase_url = "u"\nmodel = "m"\n')
    with pytest.raises(UnreadableError, match=r"no profile 'two' \(it has: one\)"):
        load_profile("two", path)


def test_the_file_is_found_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROFILES_ENV, str(tmp_path / "server.toml"))
    assert profiles_path() == tmp_path / "server.toml"
    assert profiles_path(tmp_path / "given.toml") == tmp_path / "given.toml"
