"""scores/*.json: one evaluation verdict per file, `{"score": number, "gpt_response_text": str}`.

`gpt_response_text` is free judge text or a JSON-encoded dict (rubric judges put `rubric_items`,
`outcome_success`, `verifier_reasoning`, ... in it); it is decoded when it is JSON so those
fields are reachable.

Our own score files store each long text once: an evaluation repeats the agent's response in
several places (raw, parsed, normalized, quoted in messages), so a 10 MB answer would make a
60 MB file. `share_long_strings` replaces later copies of a long text (or of a part of one) by a
reference string and `expand_shared_strings` puts them back; files without references (every
other judge's, every short one) read unchanged.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import LEADS_OUTSIDE, loads_finite, read_json_file, resolve_inside
from webeval_core.reading.markers import SCORES_DIR
from webeval_core.support.diagnostics import Diagnostic

SHARED_MARK = "\x00webeval-shared:"
"""Starts a string that stands for texts stored elsewhere in the same document (`share_long_strings`)."""
_SHARED_FROM = 4096  # characters; shorter texts are always stored as they are
_KNOWN = 16  # long texts remembered to find copies of (the response comes first in a document)

JsonPath = list[str | int]


class ScoreFile(BaseModel):
    """One score file of a trajectory."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """File stem, the evaluation's hash, e.g. "gpt_eval" or "mmrubric_0.8-5-3"."""
    path: Path
    """The file inside the folder's `scores/`."""
    score: float | None = None
    """The file's `score` (1.0 full marks, 0.0 none); None when missing or not a number."""
    response_text: str | None = None
    """The judge's `gpt_response_text`: free text or JSON text; None when the file has none."""
    response: dict[str, Any] | list[Any] | None = None
    """`response_text` decoded, when it is a JSON object or array; None otherwise."""


def read_score_files(
    folder: Path, *, responses: Literal["all", "engine"] = "all"
) -> tuple[dict[str, ScoreFile], list[Diagnostic]]:
    """Every readable score file of a trajectory folder, keyed by stem; unusable files are reported.

    `responses="engine"` decodes a judge's JSON text only when it may hold an `engine` key (the
    stored evaluations `scoring.verdicts` reads) or taxonomy codes (a verifier's `error_code`,
    `ambiguity_codes`, `invalid_task_codes`: the index keeps them); every other file keeps
    `response` None.
    """
    directory = os.path.join(folder, SCORES_DIR)
    if os.path.islink(directory) and resolve_inside(folder, SCORES_DIR) is None:
        return {}, [Diagnostic(file=SCORES_DIR, message=LEADS_OUTSIDE)]
    try:
        entries = sorted((e for e in os.scandir(directory) if e.name.endswith(".json")), key=lambda e: e.name)
    except OSError:
        return {}, []
    scores: dict[str, ScoreFile] = {}
    diagnostics: list[Diagnostic] = []
    for entry in entries:
        file = f"{SCORES_DIR}/{entry.name}"
        path = resolve_inside(folder, file) if entry.is_symlink() else entry.path
        if path is None:
            diagnostics.append(Diagnostic(file=file, message=LEADS_OUTSIDE))
            continue
        content, problems = read_json_file(path, file)
        diagnostics.extend(problems)
        if content is None:
            continue
        if not isinstance(content, dict):
            diagnostics.append(Diagnostic(file=file, message="is not a JSON object; skipped"))
            continue
        stem = entry.name.removesuffix(".json")
        scores[stem] = ScoreFile(
            name=stem,
            path=Path(entry.path),
            score=_score(content, file, diagnostics),
            **response_fields(content, decode=responses == "all"),
        )
    return scores, diagnostics


def _score(content: dict[str, Any], file: str, diagnostics: list[Diagnostic]) -> float | None:
    value = content.get("score")
    if isinstance(value, int | float):
        if -1e300 < value < 1e300:  # also refuses integers too large for a float
            return float(value)
        reason = "score is out of range; ignored"
    else:
        reason = "has no score" if value is None else f"score {value!r} is not a number"
    diagnostics.append(Diagnostic(file=file, message=reason))
    return None


def response_fields(content: dict[str, Any], *, decode: bool) -> dict[str, Any]:
    """A score file's `response_text` and `response` (decoded when `decode`, else only where
    `read_score_files(responses="engine")` decodes it), as `ScoreFile` keyword arguments.
    """
    value = content.get("gpt_response_text")
    if isinstance(value, dict | list):
        return {"response_text": json.dumps(value, ensure_ascii=False), "response": value}
    if not isinstance(value, str):
        return {"response_text": None if value is None else str(value), "response": None}
    decoded: Any = None
    # An "engine" or "..._code(s)" key can only be spelt with its letters or with \u escapes.
    wanted = decode or "engine" in value or "_code" in value or "\\u" in value
    if wanted and value.lstrip()[:1] in ("{", "["):
        try:
            decoded = loads_finite(value)[0]
            if "\\u0000" in value:  # a shared reference starts with NUL, which JSON must escape
                decoded = expand_shared_strings(decoded)
        except (ValueError, RecursionError, LookupError, TypeError):  # not JSON, or a broken reference
            decoded = None
    return {"response_text": value, "response": decoded if isinstance(decoded, dict | list) else None}


def share_long_strings(document: Any) -> Any:
    """`document` (a JSON value, changed in place) with each long text stored once.

    A long string equal to, contained in, or containing one seen before (in document order)
    becomes `SHARED_MARK` + a JSON list of parts: literal strings and [path, start, end] slices
    of a text stored as it is. A long string that happens to start with the mark is escaped the
    same way.
    """
    known: list[_Known] = []
    for parent, key, text, path in _long_strings(document):
        parts = _shared_parts(text, known)
        if parts is None and text.startswith(SHARED_MARK):
            parts = [text]
        if parts is not None:
            parent[key] = SHARED_MARK + json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
        elif len(known) < _KNOWN:
            known.append(_Known(text, path, 0))
    return document


class _Known(NamedTuple):
    """A long text met earlier: stored as it is at `path`, or a slice of one from `start`."""

    text: str
    """The text."""
    path: JsonPath
    """Where the stored text it is (part of) is."""
    start: int
    """Where it starts in that stored text."""


def _shared_parts(text: str, known: list[_Known]) -> list[Any] | None:
    for earlier in known:
        at = earlier.text.find(text)
        if at >= 0:
            start = earlier.start + at
            if len(known) < _KNOWN:
                known.append(_Known(text, earlier.path, start))
            return [[earlier.path, start, start + len(text)]]
        at = text.find(earlier.text)
        if at >= 0:
            end = earlier.start + len(earlier.text)
            return [text[:at], [earlier.path, earlier.start, end], text[at + len(earlier.text) :]]
    return None


def expand_shared_strings(document: Any) -> Any:
    """`document` (changed in place) with the references `share_long_strings` made put back.

    Raises:
        LookupError, TypeError, ValueError: when a reference does not lead to a text.
    """
    marked = [
        (parent, key, text)
        for parent, key, text, _ in _long_strings(document, 0)
        if text.startswith(SHARED_MARK)
    ]
    for parent, key, text in marked:
        pieces = []
        for part in json.loads(text[len(SHARED_MARK) :]):
            if isinstance(part, str):
                pieces.append(part)
                continue
            path, start, end = part
            target: Any = document
            for step in path:
                target = target[step]
            if not isinstance(target, str):
                raise TypeError("a shared reference leads to something other than a text")
            pieces.append(target[start:end])
        parent[key] = "".join(pieces)
    return document


def _long_strings(document: Any, shortest: int = _SHARED_FROM) -> list[tuple[Any, Any, str, JsonPath]]:
    """(container, key, text, path) of every string of at least `shortest` characters, in document
    order; iterative, so deep documents cannot exhaust the stack.
    """
    found: list[tuple[Any, Any, str, JsonPath]] = []
    stack: list[tuple[Any, JsonPath]] = [(document, [])]
    while stack:
        node, path = stack.pop()
        items: list[tuple[Any, Any]] = (
            list(node.items())
            if isinstance(node, dict)
            else list(enumerate(node))
            if isinstance(node, list)
            else []
        )
        children = []
        for key, value in items:
            if isinstance(value, str):
                if len(value) >= shortest:
                    found.append((node, key, value, [*path, key]))
            elif isinstance(value, dict | list):
                children.append((value, [*path, key]))
        stack.extend(reversed(children))
    return found
