"""A scripted OpenAI-compatible endpoint on a loopback port: it answers Chat Completions as a
model would, in the published reply formats, and as a bad endpoint does (429 with Retry-After,
500, slow replies, replies with no verdict, cut connections), and records every request it got.

No model runs: the verdict of a trajectory is the test's (`verdicts`: task text -> success), and
the kind of request is recognised by the judge's system prompt. The real `openai` client talks to
it over HTTP. In a thread of the test's process (`ScriptedEndpoint().start()`), or as its own
process for a benchmark (`python -m tests.harness.scripted_llm --latency 0.2`: prints its port).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from webeval_core.llm_judging import judge_prompts as prompts

KEY = "sk-scripted-3f9a61c2d8e04b7a"
"""The key the endpoint wants (tests put it in the environment, never in argv)."""
_TASK = re.compile(r"^Task: (.*)$", re.MULTILINE)


@dataclass(frozen=True)
class Mishap:
    """What the endpoint does instead of answering one request."""

    kind: str
    """"429", "500", "slow", "cut" or "no verdict"."""
    seconds: float = 0.0
    """Retry-After for a 429; the delay of a slow reply."""


@dataclass
class Recorded:
    """One request as received."""

    path: str
    """The URL path (with its query)."""
    headers: dict[str, str]
    """Its headers (lower-case names)."""
    body: dict[str, Any]
    """The JSON body."""
    answered: bool = False
    """Whether a reply was sent (not a mishap)."""

    @property
    def system(self) -> str:
        """The system message."""
        return str(self.body["messages"][0]["content"])

    @property
    def parts(self) -> list[dict[str, Any]]:
        """The user message's parts."""
        return list(self.body["messages"][1]["content"])

    @property
    def image_urls(self) -> list[str]:
        """The image parts' URLs."""
        return [p["image_url"]["url"] for p in self.parts if p.get("type") == "image_url"]

    @property
    def text(self) -> str:
        """The user message's texts."""
        return "\n".join(p["text"] for p in self.parts if p.get("type") == "text")


@dataclass
class ScriptedModel:
    """How the endpoint answers: each trajectory's verdict by its task text, in each judge's format."""

    verdicts: dict[str, bool] = field(default_factory=dict)
    """Task text (or a part of it) -> success; a task not listed fails."""
    image_score: int = 4
    """The score every screenshot gets from WebJudge's second stage."""

    def success(self, text: str) -> bool:
        """The scripted verdict of the task named in a request's text."""
        found = _TASK.search(text)
        task = found.group(1) if found else ""
        return any(part in task for part, ok in self.verdicts.items() if ok)

    def answer(self, request: Recorded) -> str:
        """The reply a model would give, in the format the request's prompt asks for."""
        ok = self.success(request.text)
        replies: dict[str, Callable[[], str]] = {
            prompts.OUTCOME_SYSTEM: lambda: (
                f"The screenshots show the result.\nVerdict: {'SUCCESS' if ok else 'NOT SUCCESS'}"
            ),
            prompts.KEY_POINTS_SYSTEM: lambda: "Key points:\n1. Find what the task asks\n2. Report it",
            prompts.IMAGE_SYSTEM: lambda: f"The page shows the search results.\nScore: {self.image_score}",
            prompts.FINAL_SYSTEM: lambda: (
                f"The key points are {'met' if ok else 'not met'}.\nStatus: {'success' if ok else 'failure'}"
            ),
            prompts.RUBRIC_SYSTEM: lambda: json.dumps({"rubric_items": _RUBRIC}),
            prompts.VERIFY_SYSTEM: lambda: json.dumps(_verification(ok)),
        }
        return replies.get(request.system, lambda: "I cannot tell.")()


_RUBRIC = [
    {"criterion": "Reach the page", "description": "The agent opens the right page", "max_points": 2},
    {"criterion": "Give the answer", "description": "The answer states what was asked", "max_points": 3},
]


def _verification(ok: bool) -> dict[str, Any]:
    items = [
        item | {"earned_points": item["max_points"] if ok else 0, "justification": "seen"} for item in _RUBRIC
    ]
    failure = [
        {
            "step_numbers": "2",
            "error_code": "2.3",
            "error_category": "Hallucination",
            "error_type": "Output fabrication",
            "what_happened": "The answer is not on any page.",
            "agent_reasoning": "It assumed the value.",
            "evidence": "No screenshot shows it.",
            "impact": "The answer is wrong.",
        }
    ]
    return {
        "rubric_items": items,
        "rubric_reasoning": "As scripted.",
        "outcome_success": ok,
        "outcome_reasoning": "As scripted.",
        "outcome_primary_intent": "Do the task.",
        "cp_type_used": "NO_CRITICAL_POINT",
        "cp_violation": False,
        "first_point_of_failure": {
            "reasoning": "As scripted.",
            "has_failure": not ok,
            "failure_points": [] if ok else failure,
        },
        "task_verification": {
            "is_ambiguous": False,
            "ambiguity_codes": [],
            "is_invalid": False,
            "invalid_task_codes": [],
        },
    }


class ScriptedEndpoint:
    """The endpoint: `base_url`, the requests it got, the mishaps it has in store."""

    def __init__(
        self,
        model: ScriptedModel | None = None,
        *,
        latency_s: float = 0.0,
        key: str = KEY,
        record: bool = True,
    ) -> None:
        self.model = model or ScriptedModel()
        """How it answers."""
        self.latency_s = latency_s
        """How long every reply takes."""
        self.key = key
        """The key it wants as `Authorization: Bearer` (or Azure's `api-key`)."""
        self.mishaps: collections.deque[Mishap] = collections.deque()
        """What the next requests get instead of a reply, in order (one each)."""
        self.always: Mishap | None = None
        """What every request gets (after `mishaps`), e.g. a 500."""
        self.record = record
        """Whether requests are kept in `requests` (a benchmark's thousands are only counted)."""
        self.requests: list[Recorded] = []
        """Every request received, in order."""
        self.received = 0
        """Requests received."""
        self.in_flight = 0
        """Requests being answered now."""
        self.most_in_flight = 0
        """The most requests answered at once."""
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        # A short poll: `stop` waits for one, and every test stops its endpoint.
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.02,), name="scripted-llm", daemon=True
        )

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> ScriptedEndpoint:
        """Serve in a thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port."""
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> ScriptedEndpoint:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    def answered(self) -> list[Recorded]:
        """The requests that got a reply."""
        return [r for r in self.requests if r.answered]

    def _take(self, request: Recorded) -> Mishap | None:
        with self._lock:
            self.received += 1
            if self.record:
                self.requests.append(request)
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            return self.mishaps.popleft() if self.mishaps else self.always

    def _done(self) -> None:
        with self._lock:
            self.in_flight -= 1


def _handler(endpoint: ScriptedEndpoint) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the client's pool expects

        def log_message(self, *_: Any) -> None:
            """Quiet: the tests read `requests`."""

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            request = Recorded(
                path=self.path, headers={k.lower(): v for k, v in self.headers.items()}, body=body
            )
            mishap = endpoint._take(request)
            try:
                self._respond(request, mishap)
            finally:
                endpoint._done()

        def _respond(self, request: Recorded, mishap: Mishap | None) -> None:
            given = request.headers.get("authorization", "").removeprefix("Bearer ") or request.headers.get(
                "api-key"
            )
            if given != endpoint.key:
                self._json(401, {"error": {"message": "bad key", "type": "invalid_request_error"}})
                return
            if not request.path.split("?")[0].endswith("/chat/completions"):
                self._json(404, {"error": {"message": "no such route"}})
                return
            kind = mishap.kind if mishap else None
            if kind == "429":
                self._json(429, {"error": {"message": "slow down"}}, {"Retry-After": f"{mishap.seconds:g}"})  # type: ignore[union-attr]
                return
            if kind == "500":
                self._json(500, {"error": {"message": "scripted failure"}})
                return
            if kind == "cut":
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            time.sleep(endpoint.latency_s + (mishap.seconds if kind == "slow" else 0.0))
            text = (
                "I looked at the pages and cannot decide."
                if kind == "no verdict"
                else endpoint.model.answer(request)
            )
            request.answered = True
            self._json(200, _completion(request, text))

        def _json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _completion(request: Recorded, text: str) -> dict[str, Any]:
    # As a model counts: the texts at four characters a token, an image at high detail's 765.
    prompt = (len(request.system) + len(request.text)) // 4 + 765 * len(request.image_urls)
    return {
        "id": f"chatcmpl-{len(text)}",
        "object": "chat.completion",
        "created": 0,
        "model": request.body.get("model", ""),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": len(text) // 4,
            "total_tokens": prompt + len(text) // 4,
        },
    }


KEY_ENV = "WEBEVAL_TEST_JUDGE_KEY"
"""The environment variable the profiles `profiles_file` writes read the key from."""


def profiles_file(path: Path, base_url: str, **settings: Any) -> Path:
    """A profiles file with one profile, "scripted", for this endpoint (its key from `KEY_ENV`),
    quick to retry; `settings` override or add its fields.
    """
    fields: dict[str, Any] = {
        "base_url": base_url,
        "model": "scripted-model",
        "api_key_env": KEY_ENV,
        "backoff_s": 0.01,
        "timeout_s": 10,
        "concurrency": 4,
    } | settings
    lines = ["[profiles.scripted]", *(f"{name} = {json.dumps(value)}" for name, value in fields.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> None:
    """Serve until killed, printing the base URL first (for a benchmark's own process)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    model = ScriptedModel(verdicts={"": True})
    endpoint = ScriptedEndpoint(model, latency_s=args.latency, record=False).start()
    print(endpoint.base_url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        endpoint.stop()
    sys.exit(0)


if __name__ == "__main__":
    main()
