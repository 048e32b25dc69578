"""The index's summary of an ORDINARY Fara folder, made in one pass over its bytes (`quick_summary`).

A cold index spends most of its time summarising folders that hold nothing unusual: one answer
file, web_surfer.log, times.json, core.log, score files, all plain JSON. For those this makes the
summary `summarize_trajectory` makes, and the document `summary.stored_document` stores, without
the glance's models, readers and warnings: one listing, each file read once in three system
calls (`read_listed`: the listing says it is a regular file), JSON decoded by orjson alone, and
the document written by orjson. Whatever it does not read exactly as the full summary would (a
link, a FIFO or a device in the folder, a file orjson refuses or that would be read with a
warning, several answer files, a value pydantic would coerce, a float whose JSON text pydantic
spells otherwise...) gives None, and the folder takes the full way: nothing here ever decides a
case differently, it declines it. tests/core/runs/test_quicksummary.py holds both ways equal on
every sample, hostile and mutated folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from webeval_core.reading.actionlog import count_steps
from webeval_core.reading.corelog import last_error_message
from webeval_core.reading.fara_reader import MAX_DURATION_S, answer_task_id
from webeval_core.reading.folderfiles import READ_LIMIT, has_long_number, read_listed
from webeval_core.reading.folderreader import LOG_READ_LIMIT, Listing
from webeval_core.reading.markers import (
    ANSWER_SUFFIX,
    CORE_LOG_NAME,
    EVAL_RESULT_NAME,
    LOG_NAME,
    SCORES_DIR,
    TASK_DATA_NAME,
    TIMES_NAME,
)
from webeval_core.reading.scorefiles import ScoreFile, response_fields
from webeval_core.reading.screenshots import count_screenshots
from webeval_core.reading.taskdata import site_of, task_text_of
from webeval_core.reading.trajectory_model import NO_ANSWER_MARKER
from webeval_core.reading.verifier import failure_codes, is_verifier_response
from webeval_core.runs.summary import ANSWER_PREVIEW, TrajectorySummary, error_type
from webeval_core.scoring.verdicts import Verdict, plain_verdict, read_verdict

__all__ = ["folder_path", "quick_summary"]

_TOKEN_COUNTS = ("prompt_tokens", "completion_tokens")
_OPTIONAL_COUNTS = ("reasoning_tokens", "num_calls")
_TIMES = ("start_time", "end_time", "duration")
_LAST_TIME = 1e10  # unix seconds (year 2286): any time below is one `datetime` can place
# Floats below this print alike from pydantic and orjson (above, pydantic writes 1e16, orjson 1e+16).
_PLAIN_FLOAT = 1e16
_BOM = b"\xef\xbb\xbf"

# Models are made by updating every field of one made at import (`model_copy`: no validation, as
# `model_construct`, but without its walk over every field's aliases and defaults).
_SUMMARY = TrajectorySummary(run_key="", key="", path=Path(), task_id="")
_SCORE_FILE = ScoreFile(name="", path=Path())


class _DeclinedError(Exception):
    """The folder holds something the quick summary does not read: the full way reads it."""


def quick_summary(
    run_key: str, folder: str, key: str, listing: Listing | None = None
) -> tuple[TrajectorySummary, str] | None:
    """The summary and stored JSON document `summary.stored_document(summarize_trajectory(run_key,
    Path(folder), key))` gives, for an ordinary Fara folder; None for any other (read it in full).
    `listing`: the folder's, when the caller has just listed it.
    """
    try:
        fields = _fields(run_key, folder, key, listing)
        stored = {**fields, "verdict": _verdict(fields["verdict"])}
        document = orjson.dumps(stored).decode()  # refuses lone surrogates and 65-bit integers
    except Exception:  # any surprise is the full reader's to read and report
        return None
    return _SUMMARY.model_copy(update={**fields, "path": folder_path(folder)}), document


def _fields(run_key: str, folder: str, key: str, listing: Listing | None) -> dict[str, Any]:
    """The summary's fields in `TrajectorySummary`'s order (that of its stored JSON), `path` aside."""
    if listing is not None and not listing.plain:
        raise _DeclinedError  # a link, FIFO, socket or device: the full reader reads or names it
    names = _listing(folder) if listing is None else listing.names
    # Without times.json the task has not returned (`task_state`): the full reader says so. The
    # names are looked up before the answers are sought: most folders of other formats stop here.
    if LOG_NAME not in names or TIMES_NAME not in names:
        raise _DeclinedError
    answers = [name for name in names if name.endswith(ANSWER_SUFFIX)]
    if len(answers) != 1:
        raise _DeclinedError
    at = folder + os.sep
    answer = _answer(_object(at + answers[0]))
    duration = _duration(_object(at + TIMES_NAME)) if TIMES_NAME in names else None
    task_data = _object(at + TASK_DATA_NAME) if TASK_DATA_NAME in names else None
    # The verdict reads eval_result.json's numbers, which orjson reads otherwise past 64 bits.
    eval_result = _object(at + EVAL_RESULT_NAME, numbers=True) if EVAL_RESULT_NAME in names else None
    scores, judged = _score_files(folder) if SCORES_DIR in names else ({}, [])
    verdict = _verdict_of(judged, eval_result)
    if verdict is not None:
        _plain(verdict.score)
    task_text = task_text_of(task_data)
    text = answer["text"]
    return {
        "run_key": run_key,
        "key": key,
        "task_id": answer_task_id(answers[0]),
        "layout": "fara",
        "outcome": answer["outcome"],
        "steps": count_steps(_log(at + LOG_NAME)),
        "screenshots": count_screenshots(folder, names, answer["screenshots"]),
        "duration_s": _plain(duration),
        "prompt_tokens": answer["prompt_tokens"],
        "completion_tokens": answer["completion_tokens"],
        "final_answer": text[:ANSWER_PREVIEW] if text else None,
        "task_text": task_text.text if task_text is not None else None,
        "site": site_of(task_data),
        "scores": scores,
        "core_error": _core_error(folder) if CORE_LOG_NAME in names else None,
        "crash_reason": None,
        "verdict": verdict,
        "failure_codes": _failure_codes(judged),
        "warnings": 0,
        "unreadable": None,
    }


def _listing(folder: str) -> set[str]:
    """The folder's names (a trajectory's or its `scores/`), when each is a regular file or a
    folder (`read_listed` reads them).
    """
    names = set()
    with os.scandir(folder) as entries:
        for entry in entries:
            # A link, FIFO, socket or device: the full reader reads or names it.
            if not (entry.is_file(follow_symlinks=False) or entry.is_dir(follow_symlinks=False)):
                raise _DeclinedError
            names.add(entry.name)
    return names


def _object(path: str, *, numbers: bool = False) -> dict[str, Any]:
    """A JSON file's object as `read_json_file` reads it (without a warning), decoded by orjson.

    orjson refuses bad UTF-8, NaN, lone surrogates, blank files and numbers out of float range
    (5,000-digit integers too, which `json` refuses): all declined. It reads integers past 64 bits
    as floats, where `json` keeps them: callers taking a number from the file check it is a plain
    int or a float in range, or ask for `numbers` (any integer of 19 digits or more declined).
    """
    data = read_listed(path, READ_LIMIT)
    if data.startswith(_BOM) or (numbers and has_long_number(data)):
        raise _DeclinedError
    value = orjson.loads(data)
    if type(value) is not dict:
        raise _DeclinedError
    return value


def _log(path: str) -> bytes:
    return read_listed(path, LOG_READ_LIMIT)  # a longer log is read by the full reader, which says so


def _answer(content: dict[str, Any]) -> dict[str, Any]:
    """What the summary takes of `FinalAnswer.model_validate(content)`, where pydantic would accept
    every field as it is (no coercion, no warning).
    """
    text = content.get("final_answer", NO_ANSWER_MARKER)
    aborted = content.get("is_aborted", False)
    screenshots = content.get("screenshots", [])
    usage = content.get("token_usage", {})
    if (
        type(text) is not str
        or type(aborted) is not bool
        or type(content.get("is_rel_paths", True)) is not bool
        or type(screenshots) is not list
        or any(type(item) is not str for item in screenshots)
        or type(usage) is not dict
    ):
        raise _DeclinedError
    totals = [0, 0]
    for component in usage.values():
        counts = _usage(component)
        totals[0] += counts[0]
        totals[1] += counts[1]
    outcome = "aborted" if aborted else "no_answer" if text == NO_ANSWER_MARKER else "answered"
    return {
        "text": text if text != NO_ANSWER_MARKER else None,
        "outcome": outcome,
        "screenshots": screenshots,
        "prompt_tokens": totals[0],
        "completion_tokens": totals[1],
    }


def _usage(component: object) -> tuple[int, int]:
    """A component's `TokenUsage` (prompt, completion), when every count is a plain integer."""
    if type(component) is not dict:
        raise _DeclinedError
    counts = tuple(component.get(name, 0) for name in _TOKEN_COUNTS)
    optional = (component.get(name) for name in _OPTIONAL_COUNTS)
    if any(type(n) is not int for n in counts) or any(n is not None and type(n) is not int for n in optional):
        raise _DeclinedError
    return counts[0], counts[1]


def _duration(content: dict[str, Any]) -> float | None:
    """`read_times(...).solver_seconds`, when every time is a plain number in range (no warning)."""
    start, end, duration = (content.get(name) for name in _TIMES)
    for value, top in ((start, _LAST_TIME), (end, _LAST_TIME), (duration, MAX_DURATION_S)):
        if value is not None and (type(value) not in (int, float) or not 0 <= value < top):
            raise _DeclinedError
    if duration is not None:
        return float(duration)
    return float(end) - float(start) if start is not None and end is not None else None


class _Judged(NamedTuple):
    """A score file with a decoded response, as `ScoreFile`'s fields: made a model only when a
    verdict or a verifier's codes are read through the full readers (most folders need none).
    """

    name: str
    """The file's stem (`ScoreFile.name`)."""
    path: str
    """The file (`ScoreFile.path`, as text)."""
    score: float | None
    """Its score (`ScoreFile.score`)."""
    response_text: str | None
    """The judge's text (`ScoreFile.response_text`)."""
    response: dict[str, Any] | list[Any]
    """The text decoded (`ScoreFile.response`)."""


def _score_files(folder: str) -> tuple[dict[str, float | None], list[_Judged]]:
    """`read_score_files(folder, responses="engine")`, when every file is a regular one read
    without a warning: each file's score, and the files with a decoded response (all a verdict or a
    verifier's codes can come from).
    """
    at = folder + os.sep + SCORES_DIR + os.sep
    found = sorted(name for name in _listing(at) if name.endswith(".json"))
    scores: dict[str, float | None] = {}
    judged: list[_Judged] = []
    for name in found:
        path = at + name
        # A text response's numbers are `read_score_files`' own to decode; any other's are read here.
        content = _object(path)
        if type(content.get("gpt_response_text")) is not str:
            content = _object(path, numbers=True)
        score = content.get("score")
        if not isinstance(score, int | float) or not -1e300 < score < 1e300:
            raise _DeclinedError
        stem = name.removesuffix(".json")
        score = scores[stem] = _plain(float(score))
        response = response_fields(content, decode=False)
        if response["response"] is not None:
            judged.append(_Judged(stem, path, score, **response))
    return scores, judged


def _models(judged: list[_Judged]) -> dict[str, ScoreFile]:
    """The files as `read_score_files` gives them."""
    return {j.name: _SCORE_FILE.model_copy(update={**j._asdict(), "path": Path(j.path)}) for j in judged}


def _verdict_of(judged: list[_Judged], eval_result: dict[str, Any] | None) -> Verdict | None:
    """`read_verdict(judged, eval_result)`; a single stored evaluation is read as it is when it can be."""
    stored = [(j, r) for j in judged if type(r := j.response) is dict and type(r.get("engine")) is dict]
    if len(stored) == 1:
        ((file, response),) = stored
        verdict = plain_verdict(file.name, file.score, response)
        if verdict is not None:
            return verdict
    return read_verdict(_models(judged), eval_result)


def _failure_codes(judged: list[_Judged]) -> dict[str, tuple[str, ...]]:
    """`failure_codes` of the score files, asked only of verifiers' (most are evaluations)."""
    verifiers = [j for j in judged if is_verifier_response(j.response)]
    return failure_codes(_models(verifiers)) if verifiers else {}


def _core_error(folder: str) -> str | None:
    data = _log(folder + os.sep + CORE_LOG_NAME)
    message = last_error_message(data)
    return error_type(message) if message is not None else None


def _verdict(verdict: Verdict | None) -> dict[str, Any] | None:
    if verdict is None:
        return None
    return {"source": verdict.source, "status": verdict.status, "score": verdict.score, "tags": verdict.tags}


# Paths of the folders' parents: a deep folder's Path costs as much as its summary's JSON, and a
# worker reads the folders of a few runs (kept to a bound all the same).
_PARENTS: dict[str, Path] = {}
_PARENTS_KEPT = 256


def folder_path(location: str) -> Path:
    """`Path(location)`, made from its parent's (parsed once) and its name."""
    parent, _, name = location.rpartition(os.sep)
    if not parent:  # "name" or "/name"
        return Path(location)
    made = _PARENTS.get(parent)
    if made is None:
        if len(_PARENTS) >= _PARENTS_KEPT:
            _PARENTS.clear()
        made = _PARENTS[parent] = Path(parent)
    return made / name


def _plain(value: float | None) -> float | None:
    """`value`, when orjson writes it as pydantic does."""
    if value is not None and not -_PLAIN_FLOAT < value < _PLAIN_FLOAT:
        raise _DeclinedError
    return value
