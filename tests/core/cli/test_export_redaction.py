"""Secrets planted in a copy of the samples (HAR headers, a query token, a typed password, an e-mail
in an answer, a token in a core.log line) survive in no byte of any export kind (the bundle too), each kind is
counted in the export's redaction report, and --no-redact keeps them and says so."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_RUNS, private_copy
from tests.core.cli.helpers import run_cli
from tests.harness.builders import Act, structured_line, text_action_line
from webeval_core.presentation.redaction import REPORT_NAME, Redactor, redacted_page
from webeval_core.presentation.run_html import report_zip
from webeval_core.presentation.trajectory_document import standalone_page
from webeval_core.reading import installed_catalog, load_trajectory
from webeval_core.runs.index import build_index

RUN = "runs/WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebArenaVerified_sample/0"
TASK = "11"
SECRETS = {
    "cookie": "PLANTEDCOOKIE1",
    "bearer": "PLANTEDBEARER2",
    "set-cookie": "PLANTEDSETCOOKIE3",
    "query": "PLANTEDQUERY4",
    "password": "PLANTEDPASS5",
    "e-mail": "planted.person@example.org",
    "log token": "PLANTEDAPIKEY6",
}


def _plant(folder: Path) -> None:
    har_path = folder / "network.har"
    har = json.loads(har_path.read_text())
    login = {
        "startedDateTime": "2025-11-14T21:24:46.000Z",
        "time": 12.0,
        "request": {
            "method": "POST",
            "url": f"http://localhost:7780/admin/login?access_token={SECRETS['query']}",
            "httpVersion": "HTTP/1.1",
            "cookies": [{"name": "admin", "value": SECRETS["cookie"]}],
            "headers": [
                {"name": "Cookie", "value": f"admin={SECRETS['cookie']}"},
                {"name": "Authorization", "value": f"Bearer {SECRETS['bearer']}"},
            ],
            "queryString": [{"name": "access_token", "value": SECRETS["query"]}],
            "postData": {
                "mimeType": "application/x-www-form-urlencoded",
                "text": f"login%5Busername%5D=admin&login%5Bpassword%5D={SECRETS['password']}",
            },
            "headersSize": -1,
            "bodySize": -1,
        },
        "response": {
            "status": 302,
            "statusText": "Found",
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": [{"name": "Set-Cookie", "value": f"admin={SECRETS['set-cookie']}; path=/"}],
            "content": {"size": 0, "mimeType": "text/html"},
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": 0,
        },
        "cache": {},
        "timings": {"send": 0, "wait": 10, "receive": 2},
    }
    har["log"]["entries"].insert(1, login)
    har_path.write_text(json.dumps(har, indent=2))
    typing = Act("type", {"text": SECRETS["password"]}, thought="I type the admin password.")
    with open(folder / "web_surfer.log", "a", encoding="utf-8") as log:
        log.write(text_action_line(9, typing) + "\n" + structured_line(9, typing) + "\n")
    answer_path = folder / f"{TASK}_final_answer.json"
    answer = json.loads(answer_path.read_text())
    answer["final_answer"] += f" Questions: {SECRETS['e-mail']}"
    answer_path.write_text(json.dumps(answer, indent=2))
    with open(folder / "core.log", "a", encoding="utf-8") as core:
        line = f"request failed: api_key={SECRETS['log token']}"
        core.write(f"2025-11-14 13:25:01,000 [ERROR] webeval.core.{TASK} - {line}\n")


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = private_copy(SAMPLE_RUNS, tmp_path_factory.mktemp("planted") / "sample_runs")
    _plant(root / RUN / "traj" / TASK)
    return root


def _every_byte(path: Path) -> bytes:
    if path.is_file():
        return path.read_bytes()
    return b"".join(p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file())


def _exports(root: Path, out: Path, *extra: str) -> dict[str, Path]:
    """Every export kind of the planted root, written under `out`."""
    folder = root / RUN / "traj" / TASK
    made = {
        "csv": out / "rows.csv",
        "jsonl": out / "rows.jsonl",
        "html report": out / "report",
        "show --html": out / "page.html",
        "atif": out / "atif",
        "bundle": out / "site",
    }
    out.mkdir(parents=True)
    assert run_cli("export", str(root), "-o", str(made["csv"]), *extra)[0] == 0
    assert run_cli("export", str(root), "--format", "jsonl", "-o", str(made["jsonl"]), *extra)[0] == 0
    assert (
        run_cli(
            "export", str(root), "--format", "html", "--run", RUN, "-o", str(made["html report"]), *extra
        )[0]
        == 0
    )
    assert run_cli("show", str(folder), "--html", str(made["show --html"]), *extra)[0] == 0
    assert run_cli("export", str(root), "--format", "atif", "-o", str(made["atif"]), *extra)[0] == 0
    assert run_cli("bundle", str(root), "-o", str(made["bundle"]), "--run", RUN, *extra)[0] == 0
    return made


@pytest.mark.slow
def test_no_planted_secret_survives_any_export(
    planted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    trajectory = load_trajectory(planted / RUN / "traj" / TASK)
    # The planted secrets are there to find: the readers see them.
    assert SECRETS["e-mail"] in (trajectory.final_answer_text or "")
    assert any(step.typed_text == SECRETS["password"] for step in trajectory.steps)
    made = _exports(planted, tmp_path / "out")
    evidence = Redactor()
    made_bytes = {kind: _every_byte(path) for kind, path in made.items()}
    made_bytes["evidence download"] = redacted_page(trajectory, standalone_page, evidence, TASK).encode()
    zipped = Redactor()
    zip_bytes = report_zip(build_index(planted), RUN, installed_catalog(), None, zipped)
    archive = zipfile.ZipFile(io.BytesIO(zip_bytes))
    made_bytes["run report zip"] = b"".join(archive.read(name) for name in archive.namelist())
    for kind, data in made_bytes.items():
        for what, secret in SECRETS.items():
            assert secret.encode() not in data, f"{what} survives in the {kind}"
    # Each kind of secret is counted where it was found.
    page_report = json.loads((made["show --html"].with_name("page.html.redaction.json")).read_text())
    kinds = {c["kind"] for c in page_report["counts"]}
    assert {"header", "query", "body", "typed password", "e-mail", "token in text"} <= kinds
    assert json.loads((made["atif"] / REPORT_NAME).read_text())["redacted"] is True
    bundle_report = json.loads((made["bundle"] / REPORT_NAME).read_text())
    assert {"e-mail", "typed password", "token in text"} <= {c["kind"] for c in bundle_report["counts"]}
    assert {"e-mail", "typed password", "token in text"} <= set(evidence.report().by_kind())
    assert REPORT_NAME in archive.namelist()


@pytest.mark.slow
def test_no_redact_keeps_the_secrets_and_says_so(
    planted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    made = _exports(planted, tmp_path / "out", "--no-redact")
    assert "--no-redact: nothing is removed" in capsys.readouterr().err
    assert SECRETS["e-mail"].encode() in _every_byte(made["csv"])
    assert SECRETS["password"].encode() in _every_byte(made["show --html"])
    report = json.loads((made["atif"] / REPORT_NAME).read_text())
    assert report == {"redacted": False, "counts": []}
