"""Endpoint profiles: where a judge's model is served and how it is asked, from a TOML file.

A profile names an OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, a gateway) or an Azure OpenAI
deployment, the model, and the parameters of every request (JSON mode, images, temperature, seed,
max tokens) and of the traffic (timeout, concurrency, requests per minute, retries). The key is read
from an environment variable or a file the profile names, when a request is about to be sent: it is
never a command-line argument, never shown on a page and never written to a log or a score file.

```toml
[profiles.local-vllm]
base_url = "http://127.0.0.1:8000/v1"
model = "Qwen/Qwen2.5-VL-7B-Instruct"
api_key_env = "VLLM_API_KEY"      # or api_key_file = "~/.config/webeval/vllm.key"
```
"""

from __future__ import annotations

import os
import tomllib
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from webeval_core.support.diagnostics import UnreadableError

PROFILES_ENV = "WEBEVAL_JUDGE_PROFILES"
"""The environment variable naming the profiles file (the app server's, set by its operator)."""
NO_KEY = "unused"
"""What is sent as the key to an endpoint that needs none (vLLM, Ollama): the client requires one."""


class Provider(StrEnum):
    """Which client speaks to the endpoint."""

    OPENAI_COMPATIBLE = "openai-compatible"
    """Chat Completions at `base_url` (OpenAI, vLLM, Ollama, any gateway)."""
    AZURE = "azure"
    """An Azure OpenAI resource at `base_url`, the model its deployment name."""


class EndpointProfile(BaseModel):
    """One endpoint and how every request to it is made."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = ""
    """The profile's name in its file (set by `load_profiles`)."""
    base_url: str
    """The API's base URL, e.g. "http://127.0.0.1:8000/v1" (Azure: "https://NAME.openai.azure.com")."""
    model: str
    """The model asked (Azure: the deployment)."""
    provider: Provider = Provider.OPENAI_COMPATIBLE
    """openai-compatible or azure."""
    api_version: str = "2024-10-21"
    """Azure OpenAI's API version (ignored by other providers)."""
    api_key_env: str | None = None
    """The environment variable holding the key."""
    api_key_file: str | None = None
    """A file holding the key (its first line); `~` is expanded."""
    json_mode: bool = False
    """Ask for a JSON object (`response_format`) where a judge's reply is JSON (the rubric verifier)."""
    image_detail: Literal["low", "high", "auto"] = "high"
    """The image parts' `detail`."""
    image_quality: int = Field(default=85, ge=1, le=100)
    """JPEG quality of the screenshots sent."""
    max_images: int = Field(default=5, ge=1, le=100)
    """The most screenshots one request carries."""
    temperature: float = 0.0
    """Sampling temperature (the published judges use 0)."""
    seed: int | None = 42
    """The request's seed; None sends none."""
    max_tokens: int = Field(default=1000, ge=1)
    """The reply's most tokens."""
    timeout_s: float = Field(default=120.0, gt=0)
    """How long one request may take before it is a judge error."""
    concurrency: int = Field(default=4, ge=1, le=256)
    """Requests in flight at most."""
    requests_per_minute: float | None = Field(default=None, gt=0)
    """The most requests started in a minute; None: no limit but concurrency."""
    retries: int = Field(default=3, ge=0, le=10)
    """Times a 5xx reply or a cut connection is retried."""
    backoff_s: float = Field(default=1.0, ge=0)
    """The first wait before a retry (doubled each time)."""
    rate_limit_waits: int = Field(default=10, ge=0, le=100)
    """Times a 429 reply is waited out before it is a judge error."""
    price_input_per_mtok: float | None = None
    """Price of a million prompt tokens, for the cost said at the end; None: no cost said."""
    price_output_per_mtok: float | None = None
    """Price of a million completion tokens."""

    @model_validator(mode="after")
    def _one_key_source(self) -> EndpointProfile:
        """A key comes from one place: an environment variable or a file, not both."""
        if self.api_key_env and self.api_key_file:
            raise ValueError("give api_key_env or api_key_file, not both")
        return self

    def api_key(self) -> str:
        """The key, read now from where the profile says; `NO_KEY` when it names none.

        Raises:
            UnreadableError: the variable is unset or the file unreadable (named, never the value).
        """
        if self.api_key_env:
            value = os.environ.get(self.api_key_env)
            if not value:
                raise UnreadableError(
                    f"profile {self.name}", f"the environment variable {self.api_key_env} is not set"
                )
            return value
        if self.api_key_file:
            path = Path(self.api_key_file).expanduser()
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError) as exc:
                raise UnreadableError(
                    str(path), f"the key file cannot be read ({type(exc).__name__})"
                ) from None
            if not lines or not lines[0].strip():
                raise UnreadableError(str(path), "the key file is empty")
            return lines[0].strip()
        return NO_KEY

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        """What those tokens cost at the profile's prices; None when it gives none."""
        if self.price_input_per_mtok is None and self.price_output_per_mtok is None:
            return None
        return (
            prompt_tokens * (self.price_input_per_mtok or 0.0)
            + completion_tokens * (self.price_output_per_mtok or 0.0)
        ) / 1e6


def profiles_path(explicit: str | Path | None = None) -> Path:
    """The profiles file: the one given, else `$WEBEVAL_JUDGE_PROFILES`, else
    `~/.config/webeval/judges.toml`.
    """
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(PROFILES_ENV):
        return Path(os.environ[PROFILES_ENV]).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "webeval" / "judges.toml"


def load_profiles(path: str | Path | None = None) -> dict[str, EndpointProfile]:
    """Every profile of the file (`[profiles.NAME]` tables), by name.

    Raises:
        UnreadableError: the file is missing or not TOML, or a profile is malformed (named, with
            its field).
    """
    where = profiles_path(path)
    try:
        document = tomllib.loads(where.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UnreadableError(str(where), f"cannot be read ({(exc.strerror or str(exc)).lower()})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UnreadableError(str(where), f"is not TOML: {exc}") from None
    tables = document.get("profiles")
    if not isinstance(tables, dict) or not tables:
        raise UnreadableError(str(where), "has no [profiles.NAME] table")
    profiles = {}
    for name, table in tables.items():
        if not isinstance(table, dict):
            raise UnreadableError(str(where), f"profiles.{name} is not a table")
        try:
            profiles[name] = EndpointProfile.model_validate({**table, "name": name})
        except ValidationError as exc:
            problem = exc.errors()[0]
            field = ".".join(str(part) for part in problem["loc"]) or "(profile)"
            raise UnreadableError(str(where), f"profiles.{name}.{field}: {problem['msg']}") from None
    return profiles


def load_profile(name: str, path: str | Path | None = None) -> EndpointProfile:
    """One profile by name.

    Raises:
        UnreadableError: as `load_profiles`, or no profile has that name (the names there are said).
    """
    profiles = load_profiles(path)
    if name not in profiles:
        known = ", ".join(sorted(profiles))
        raise UnreadableError(str(profiles_path(path)), f"has no profile {name!r} (it has: {known})")
    return profiles[name]
