"""The package as a user installs it: the wheel carries the app, `webeval app` serves and stops.

Each test makes a fresh virtualenv in a temporary folder outside the checkout. Installing the
pinned dependencies again would take minutes and the network, so the new environment sees the
test environment's site-packages through a .pth line (appended after its own, so the installed
wheel wins) and only the project itself is installed into it, without dependencies. Nothing runs
with the checkout on sys.path: PYTHONPATH is dropped and every command runs in another folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

from tests.browser.streamlit_server import free_port, kill_group, stop_leaves_nothing, wait_healthy
from tests.conftest import Sample
from webeval_core.version import __version__

REPO = Path(__file__).resolve().parents[1]
# What the wheel may hold: the core, the app, and the wheel's own metadata.
_PRINT_APP_FILE = "from webeval_core.serving.server import app_file; print(app_file())"
WHEEL_TOP_LEVEL = {"webeval_core", "webeval_app", f"webeval_inspector-{__version__}.dist-info"}


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would put the checkout on sys.path."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}}
    return {**env, **extra}


def _run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,  # a failure is reported below with its output
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _fresh_venv(where: Path) -> Path:
    """A virtualenv without the project that sees the already installed dependencies; its bin/."""
    venv.EnvBuilder(with_pip=False).create(where)
    python = where / "bin" / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=where)
    (Path(purelib.strip()) / "webeval-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return where / "bin"


def _pip_install(bin_dir: Path, *args: str | Path, cwd: Path) -> None:
    # The test environment's pip drives the new one; the build backend (pinned in the lock) is
    # already installed, so building needs no network.
    _run(
        sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "--quiet",
        "--disable-pip-version-check", "--no-deps", "--no-build-isolation", *args, cwd=cwd,
    )  # fmt: skip


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    _run(
        sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
        "--no-build-isolation", "--wheel-dir", dist, REPO, cwd=dist,
    )  # fmt: skip
    (built,) = dist.glob("webeval_inspector-*.whl")
    return built


def test_wheel_holds_the_core_and_the_app_and_nothing_else(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == WHEEL_TOP_LEVEL
    assert "webeval_app/app.py" in names
    assert "webeval_app/webeval_ui/roots.py" in names
    assert "webeval_app/webeval_ui/trajectory_tabs/replay_tab.py" in names
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ folder of a fresh virtualenv with the wheel installed."""
    bin_dir = _fresh_venv(tmp_path_factory.mktemp("installed") / "venv")
    _pip_install(bin_dir, wheel, cwd=tmp_path_factory.mktemp("elsewhere"))
    return bin_dir


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working folder outside the checkout."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


@pytest.fixture
def root_copy(scored_sample: Sample) -> Path:
    """The session's scored copy of sample_runs/: the app only reads it."""
    return scored_sample.root


def test_installed_wheel_has_the_version_and_its_own_app(installed: Path, elsewhere: Path) -> None:
    assert _run(installed / "webeval", "--version", cwd=elsewhere).strip() == f"webeval {__version__}"
    located = _run(installed / "python", "-c", _PRINT_APP_FILE, cwd=elsewhere)
    assert Path(located.strip()).is_relative_to(installed.parent), (
        "the app is the wheel's, not the checkout's"
    )


def test_installed_app_renders_its_overview(installed: Path, elsewhere: Path, root_copy: Path) -> None:
    # Every page imports `webeval_ui.common`: this proves the app's imports hold in the wheel's layout.
    script = (
        "from streamlit.testing.v1 import AppTest\n"
        "from webeval_core.serving.server import app_file\n"
        "at = AppTest.from_file(str(app_file()), default_timeout=120)\n"
        "at.run()\n"
        "assert not at.exception, [e.value for e in at.exception]\n"
        "print([t.value for t in at.title])\n"
    )
    done = subprocess.run(
        [installed / "python", "-c", script],
        cwd=elsewhere,
        env=_clean_env(WEBEVAL_ROOT=str(root_copy), XDG_CACHE_HOME=str(elsewhere / "cache")),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['Overview']"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the server's processes in /proc")
def test_installed_app_serves_and_stops_on_sigterm(
    installed: Path, elsewhere: Path, root_copy: Path, tmp_path: Path
) -> None:
    port = free_port()
    log = tmp_path / "app.log"
    command = [str(installed / "webeval"), "app", str(root_copy), "--port", str(port)]
    env = _clean_env(XDG_CACHE_HOME=str(tmp_path / "cache"))
    with open(log, "wb") as out:
        # A group of its own, so the test can see (and at worst kill) every process it started.
        process = subprocess.Popen(
            command, cwd=elsewhere, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        base_url = f"http://127.0.0.1:{port}"
        wait_healthy(base_url, process, log, timeout_s=60)
        with urllib.request.urlopen(f"{base_url}/_stcore/health", timeout=10) as response:
            assert response.read().decode() == "ok"
        with urllib.request.urlopen(f"{base_url}/", timeout=10) as response:
            assert response.status == 200
            assert response.headers.get_content_type() == "text/html"
            assert "<html" in response.read().decode().lower()

        stop_leaves_nothing(process, port, log)
    finally:
        kill_group(process)


def test_editable_install_runs_the_checkouts_app(tmp_path: Path, elsewhere: Path) -> None:
    bin_dir = _fresh_venv(tmp_path / "venv")
    _pip_install(bin_dir, "--editable", REPO, cwd=elsewhere)

    located = _run(
        bin_dir / "python",
        "-c",
        "from webeval_core.serving.server import app_file; print(app_file())",
        cwd=elsewhere,
    )
    assert Path(located.strip()) == REPO / "app.py"
    assert _run(bin_dir / "webeval", "--version", cwd=elsewhere).strip() == f"webeval {__version__}"
