"""The standalone HTML page of one trajectory: content, embedded frames, escaping, no external loads."""

from __future__ import annotations

import base64
import json
import re
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import Sample
from tests.harness.builders import FARA_ACTIONS, Act, fara_folder, wav_folder, write_log, write_score
from webeval_core.presentation.frames import action_label
from webeval_core.presentation.html import IMAGE_WIDTH
from webeval_core.presentation.overlay import page_frame
from webeval_core.presentation.trajectory_document import trajectory_html
from webeval_core.presentation.trajectory_sections import network_explanations
from webeval_core.reading.task_catalog import Task, load_catalog
from webeval_core.reading.trajectory_reader import Trajectory, load_trajectory

DATA_URI = 'src="data:image/jpeg;base64,'
EXTERNAL = re.compile(r"""(?:src|href|action|srcset|poster)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
JS_URL = "javascript:alert(document.cookie)"


def _escape(text: str) -> str:
    return escape(text, quote=True)


def _catalog_task(task_id: str) -> Task:
    task = load_catalog().get(task_id)
    assert task is not None, f"task {task_id} is not in the installed catalog"
    return task


def _steps(page: str) -> dict[int, str]:
    """Each step's article, by the number of its anchor."""
    return {
        int(n): body for n, body in re.findall(r'<article id="step-(\d+)">(.*?)</article>', page, re.DOTALL)
    }


def _embedded(article: str) -> bytes:
    (data,) = re.findall(r'src="data:image/jpeg;base64,([A-Za-z0-9+/=]+)"', article)
    return base64.b64decode(data)


class _Tags(HTMLParser):
    """Every tag of a page with its attributes, as a browser's parser would see them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


@pytest.fixture
def answered(tmp_path: Path) -> Trajectory:
    folder = fara_folder(tmp_path, "108")
    write_score(folder, "gpt_eval", 1.0, "looks right")
    write_score(folder, "mmrubric_0.8-5-3", 0.5, "half")
    return load_trajectory(folder)


def test_header_facts_and_every_step_appear(answered: Trajectory) -> None:
    task = _catalog_task("108")
    page = trajectory_html(answered, task)

    assert "<h1>Task 108</h1>" in page
    assert f'<p class="intent">{_escape(task.intent)}</p>' in page
    assert f"<dd>{_escape(', '.join(task.sites))}</dd>" in page
    assert f"<dd>{_escape(' '.join(task.start_urls))}</dd>" in page
    assert '<span class="badge good">answered</span>' in page
    assert '<span class="badge good">LLM judge (gpt_eval): 1</span>' in page
    assert '<span class="badge partial">rubric judge (mmrubric_0.8-5-3): 0.5</span>' in page
    assert "<pre>The longest trail is Half Dome.</pre>" in page
    steps = _steps(page)
    assert sorted(steps) == [1, 2, 3, 4, 5]
    for act, step in zip(FARA_ACTIONS, answered.steps, strict=True):
        article = steps[step.index]
        assert f"Step {step.index} of 5 · {act.action}" in article
        assert _escape(act.thought) in article
        assert _escape(act.observation) in article
        assert _escape(json.dumps(step.arguments, ensure_ascii=False)) in article
        assert f"<dd>{_escape(act.url)}</dd>" in article
        assert step.time_utc is not None and f"{step.time_utc:%Y-%m-%d %H:%M:%S} UTC" in article
    index = [int(n) for n in re.findall(r'<a href="#step-(\d+)">', page)]
    assert index == [1, 2, 3, 4, 5]


def test_a_task_outside_the_catalog_says_so(answered: Trajectory) -> None:
    page = trajectory_html(answered, None)
    assert "Not a task of the WebArena-Verified catalog." in page
    assert "Start URL" not in page


def test_the_official_verdict_shows_status_tags_and_failed_assertions(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "108")
    failed = {
        "assertion_name": "retrieved_data_array_values_mismatch",
        "status": "failure",
        "assertion_msgs": ["Expected: [6.0], Got: <b>5</b>"],
    }
    passed = {"assertion_name": "agent_response.status_match", "status": "success", "assertion_msgs": []}
    evaluation = {
        "engine": {"name": "webarena-verified", "version": "1.2.3"},
        "result": {
            "status": "failure",
            "score": 0.0,
            "evaluators_results": [
                {
                    "evaluator_name": "AgentResponseEvaluator",
                    "status": "failure",
                    "assertions": [failed, passed],
                }
            ],
        },
        "agent_response": {"findings": [], "parse_error": None},
        "network": [],
    }
    write_score(folder, "webarena-verified-1.2.3-test", 0.0, json.dumps(evaluation))

    page = trajectory_html(load_trajectory(folder), _catalog_task("108"))

    verdict = page[page.index("<h2>Official verdict</h2>") : page.index("<h2>Final answer</h2>")]
    assert '<span class="badge bad">failure</span>' in verdict
    assert '<span class="badge bad">wrong values</span>' in verdict
    assert "retrieved_data_array_values_mismatch" in verdict
    assert "Expected: [6.0], Got: &lt;b&gt;5&lt;/b&gt;" in verdict
    assert "agent_response.status_match" not in verdict  # only the failed ones


def test_without_a_verdict_there_is_no_verdict_section(answered: Trajectory) -> None:
    assert "Official verdict" not in trajectory_html(answered, None)


def test_each_step_embeds_its_frame_with_the_action_drawn(answered: Trajectory) -> None:
    page = trajectory_html(answered, None)
    steps = _steps(page)
    assert page.count(DATA_URI) == len(answered.steps)
    for step in answered.steps:
        assert step.screenshot is not None
        drawn, _ = page_frame(
            answered.path / step.screenshot,
            IMAGE_WIDTH,
            point=(step.point.x, step.point.y) if step.point else None,
            label=action_label(step.action, step.typed_text, step.scroll, step.arguments),
            scroll=step.scroll,
        )
        assert _embedded(steps[step.index]) == drawn
    click = answered.steps[1]
    assert click.action == "left_click" and click.screenshot is not None
    unmarked, _ = page_frame(answered.path / click.screenshot, IMAGE_WIDTH)
    assert _embedded(steps[2]) != unmarked  # the mark is on it


def _hostile_trajectory(tmp_path: Path) -> Trajectory:
    acts = (
        Act("visit_url", {"url": JS_URL}, thought=SCRIPT, observation=IMG, url=JS_URL),
        Act("type", {"text": IMG, "coordinate": [10, 10]}, thought=f"{IMG} {SCRIPT}", url=f"{JS_URL}<x>"),
        Act("terminate", {"status": SCRIPT}, thought="done", observation=SCRIPT),
    )
    folder = fara_folder(tmp_path, "evil", actions=acts, final_answer=f"{SCRIPT} {IMG} {JS_URL}")
    return load_trajectory(folder)


def test_agent_text_is_escaped_and_never_markup_or_links(tmp_path: Path) -> None:
    trajectory = _hostile_trajectory(tmp_path)
    task = _catalog_task("108").model_copy(update={"intent": f"{SCRIPT} {IMG}"})

    page = trajectory_html(trajectory, task)

    assert _escape(SCRIPT) in page and _escape(IMG) in page and JS_URL in page
    assert "<script" not in page.lower()
    assert "<img src=x" not in page
    tags = _tags(page)
    assert {tag for tag, _ in tags} <= {
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "div", "span",
        "dl", "dt", "dd", "pre", "section", "nav", "ol", "li", "a", "article", "figure", "img",
        "figcaption", "table", "tr", "th", "td", "details", "summary",
    }  # fmt: skip
    for tag, attrs in tags:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        if tag == "a":
            assert re.fullmatch(r"#step-\d+", attrs["href"] or ""), attrs
        if tag == "img":
            assert (attrs["src"] or "").startswith("data:image/jpeg;base64,"), attrs


def test_nothing_is_loaded_from_outside_the_file(answered: Trajectory) -> None:
    page = trajectory_html(answered, _catalog_task("108"))
    assert "https://www.alltrails.com/" in page  # agent URLs are there, as text only
    assert not EXTERNAL.search(page)
    assert "url(" not in page and "@import" not in page
    assert "default-src 'none'" in page  # the browser refuses any load that slips in


def test_a_missing_or_broken_screenshot_is_reported_in_place(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "108")
    (folder / "screenshot1.png").unlink()  # before loading: the step has no screenshot
    trajectory = load_trajectory(folder)
    (folder / "screenshot2.png").write_bytes(b"not a png")  # after loading, as in the app's cache
    (folder / "screenshot4.png").unlink()

    page = trajectory_html(trajectory, None)

    steps = _steps(page)
    assert sorted(steps) == [1, 2, 3, 4, 5]
    assert '<p class="missing">No screenshot for this step.</p>' in steps[2]
    assert "Screenshot screenshot2.png: screenshot is not a readable image" in steps[3]
    assert "Screenshot screenshot4.png: screenshot file not found" in steps[5]
    assert all(DATA_URI not in steps[n] for n in (2, 3, 5))
    assert all(DATA_URI in steps[n] for n in (1, 4))
    assert "screenshot1.png do not exist" in page  # the loader's warnings are listed too


def test_a_log_without_steps_shows_the_screenshots_in_order(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "108")
    write_log(folder, b"")
    trajectory = load_trajectory(folder)
    assert not trajectory.steps

    page = trajectory_html(trajectory, None)

    steps = _steps(page)
    assert sorted(steps) == list(range(1, len(trajectory.screenshots) + 1))
    for number, name in enumerate(trajectory.screenshots, start=1):
        assert f"Screenshot {number} of {len(trajectory.screenshots)}" in steps[number]
        assert _embedded(steps[number]) == page_frame(folder / name, IMAGE_WIDTH)[0]


def test_an_official_cli_verdict_is_shown_with_its_source_and_never_as_not_scored(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, "108")
    official = {"task_id": 108, "score": 0.0, "status": "failure", "evaluators_results": []}
    (folder / "eval_result.json").write_text(json.dumps(official))
    page = trajectory_html(load_trajectory(folder), _catalog_task("108"))

    assert "not scored" not in page
    assert "from the official CLI&#x27;s eval_result.json" in page


def test_expected_vs_actual_shows_the_catalog_answer_beside_the_agents(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, "108")
    task = _catalog_task("108")
    page = trajectory_html(load_trajectory(folder), task)

    section = page[page.index("<h2>Expected vs actual</h2>") :]
    expected = json.dumps(task.expected.model_dump(mode="json"), ensure_ascii=False, indent=2)
    assert _escape(expected) in section
    assert "Half Dome" in section


def test_each_network_check_says_what_it_expects_and_how_it_was_judged(scored_sample: Sample) -> None:
    trajectory = next(
        t
        for t in (load_trajectory(o.path) for o in scored_sample.outcomes if o.path.name == "238")
        if t.scores
    )
    task = _catalog_task("238")
    page = trajectory_html(trajectory, task)

    checks = page[page.index("<h3>Network checks</h3>") :]
    for check in task.network_checks:
        assert _escape(check.http_method) in checks
    assert "only the last matching navigation counts" in checks
    # The evaluator's own sentence per check (as the app shows it), not the compared request as JSON.
    for explanation in network_explanations(trajectory).values():
        assert _escape(explanation) in checks
    assert network_explanations(trajectory)
    assert "compared: " not in checks
