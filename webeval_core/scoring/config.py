"""The site URL mapping a verdict depends on: read, validated and found beside a trajectory.

The official evaluator maps real URLs (http://localhost:8023/...) to site placeholders
(__GITLAB__/...) before comparing; which URL belongs to which site comes from a config file in
the official shape. We validate it more strictly than the official loader, which silently
ignores a misspelt key, and find the one that applies to a trajectory folder.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import NotReadableFileError, read_file
from webeval_core.reading.task_catalog import SITES
from webeval_core.support.diagnostics import UnreadableError

CONFIG_FILE_NAME = "webarena-verified-config.json"
RUN_CONFIG_FILE_NAME = "run_config.json"  # the official CLI's per-task config, beside agent_response.json

# Keys of the official WebArenaVerifiedConfig / EnvironmentConfig; anything else is a typo the
# official loader would silently ignore.
_CONFIG_KEYS = {
    "environments",
    "test_data_file",
    "agent_response_file_name",
    "trace_file_name",
    "eval_result_file_name",
    "storage_state_file_name",
}
_ENVIRONMENT_KEYS = {"urls", "active_url_idx", "use_header_login", "credentials", "extra", "container"}
_PLACEHOLDERS = {f"__{site.upper()}__": site for site in SITES}
_PLACEHOLDERS_BY_SITE = {site: placeholder for placeholder, site in _PLACEHOLDERS.items()}


def site_placeholder(site: str) -> str:
    """The placeholder of a catalog site name, e.g. "gitlab" -> "__GITLAB__"."""
    return _PLACEHOLDERS_BY_SITE[site]


class UrlConfig(BaseModel):
    """A site URL mapping in the official shape: placeholder -> environment (urls, ...)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    environments: dict[str, dict[str, Any]]
    """Keyed by placeholder, e.g. "__GITLAB__"; each as the official EnvironmentConfig."""
    path: Path | None = None
    """The file it was read from."""
    test_data_file: Path | None = None
    """The dataset file the config names, if any."""
    warnings: tuple[str, ...] = ()
    """What in the config is valid but probably not what was meant."""

    @classmethod
    def from_dict(cls, raw: Any, path: Path | None = None) -> UrlConfig:
        """Validate the official config shape.

        Raises:
            ValueError: With a plain reason, when the shape is wrong.
        """
        if not isinstance(raw, dict):
            raise ValueError("the config must be a JSON object")
        _refuse_unknown(raw, _CONFIG_KEYS, "")
        environments = raw.get("environments") or {}
        if not isinstance(environments, dict):
            raise ValueError("'environments' must be an object keyed by site placeholder")
        parsed = {_checked_placeholder(key, env): env for key, env in environments.items()}
        data_file = raw.get("test_data_file")
        if data_file is not None and not isinstance(data_file, str):
            raise ValueError("'test_data_file' must be a path")
        return cls(
            environments=parsed,
            path=path,
            test_data_file=Path(data_file) if data_file else None,
            warnings=_warnings(parsed),
        )

    def urls(self) -> dict[str, list[str]]:
        """Each placeholder's URLs, sorted by placeholder."""
        return {placeholder: list(env["urls"]) for placeholder, env in sorted(self.environments.items())}

    def identity(self) -> str:
        """What in the config can change a verdict: the URLs and which one is active."""
        return json.dumps(
            {
                p: {"urls": env["urls"], "active_url_idx": env.get("active_url_idx") or 0}
                for p, env in self.environments.items()
            },
            sort_keys=True,
        )


def unmapped_placeholders(config: UrlConfig | None, sites: tuple[str, ...]) -> list[str]:
    """The placeholders of `sites` that `config` (or no config) has no URL for."""
    return [
        site_placeholder(s) for s in sites if config is None or site_placeholder(s) not in config.environments
    ]


def stand_ins(config: UrlConfig | None, sites: tuple[str, ...]) -> UrlConfig:
    """`config` (or nothing) plus an unroutable URL for each of `sites` it does not map."""
    environments = dict(config.environments) if config else {}
    for site in sites:
        environments.setdefault(site_placeholder(site), {"urls": [f"http://unmapped-{site}.invalid"]})
    return UrlConfig(environments=environments)


def _refuse_unknown(raw: dict[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ValueError(f"{where}unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")


def _checked_placeholder(key: Any, env: Any) -> str:
    placeholder = _placeholder(key)
    if placeholder is None:
        raise ValueError(f"unknown site {key!r} (known: {', '.join(sorted(_PLACEHOLDERS))})")
    if not isinstance(env, dict):
        raise ValueError(f"{key}: expected an object with 'urls'")
    _refuse_unknown(env, _ENVIRONMENT_KEYS, f"{key}: ")
    urls = env.get("urls")
    if not isinstance(urls, list) or not urls or not all(isinstance(u, str) and u for u in urls):
        raise ValueError(f"{key}: 'urls' must be a non-empty list of URLs")
    return placeholder


def _warnings(environments: dict[str, dict[str, Any]]) -> tuple[str, ...]:
    admin = environments.get("__SHOPPING_ADMIN__")
    if admin is not None and not any("/admin" in u for u in admin["urls"]):
        return (
            "the __SHOPPING_ADMIN__ URL has no /admin path, so admin URLs will not map to the placeholder",
        )
    return ()


def _placeholder(key: Any) -> str | None:
    # The official WebArenaSite accepts "__GITLAB__", "gitlab" and "GITLAB".
    if not isinstance(key, str):
        return None
    stripped = key.strip("_").lower()
    return f"__{stripped.upper()}__" if stripped in SITES else None


_config_cache: dict[tuple[Path, int, int], UrlConfig] = {}
_config_lock = threading.Lock()


def load_url_config(path: Path | str) -> UrlConfig:
    """Read a config file (cached until it changes).

    Raises:
        UnreadableError: With a plain reason, when the file is missing, unreadable or wrong.
    """
    file = Path(path).resolve()
    try:
        stat = file.stat()
    except OSError:
        raise UnreadableError(file, "config file not found") from None
    key = (file, stat.st_mtime_ns, stat.st_size)
    with _config_lock:
        cached = _config_cache.get(key)
    if cached is not None:
        return cached
    try:
        raw = json.loads(read_file(file))
    except NotReadableFileError as exc:
        raise UnreadableError(file, f"config file {exc.reason}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UnreadableError(file, f"config file cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise UnreadableError(file, f"config file is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except (ValueError, RecursionError) as exc:  # an integer beyond the digit limit, absurd nesting
        raise UnreadableError(file, f"config file cannot be read as JSON ({type(exc).__name__})") from None
    try:
        config = UrlConfig.from_dict(raw, path=file)
    except ValueError as exc:
        raise UnreadableError(file, str(exc)) from None
    with _config_lock:
        _config_cache[key] = config
    return config


def find_url_config(trajectory_dir: Path, root: Path | None = None) -> Path | None:
    """The config that applies to a trajectory folder when none is given explicitly.

    `run_config.json` in the folder (what the official CLI uses per task), else the nearest
    `webarena-verified-config.json` in the folder or its ancestors, up to `root` when given.
    """
    folder = Path(trajectory_dir).resolve()
    run_config = folder / RUN_CONFIG_FILE_NAME
    if run_config.is_file():
        return run_config
    stop = Path(root).resolve() if root is not None else None
    for directory in (folder, *folder.parents):
        candidate = directory / CONFIG_FILE_NAME
        if candidate.is_file():
            return candidate
        if directory == stop:
            break
    return None
