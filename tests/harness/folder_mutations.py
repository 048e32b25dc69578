"""Ordinary Fara trajectory folders, and ONE change to make to one: what a shorter road through a
folder (the index's `runs.quicksummary`) must read exactly as the full reader does, or decline.

`BASES` builds an ordinary folder: a rich builder folder (two token components, core.log,
task_data.json, a free-text judge, an official verdict and a verifier's file) and copies of two
sample folders (Fara's screenshot0..N naming and the solver's screenshot_1..N). `MUTATIONS` maps a
name to a function that changes one thing in such a folder: a file missing, doubled, linked,
special, undecodable or of an odd shape, or one field of a readable file with a value the full
reader coerces, refuses or reads in a way only it knows (pydantic's lax mode, `json` where orjson
refuses, `str.strip` on Unicode spaces...). Each works on whichever base it is given: it finds the
answer file by its suffix and writes what it needs.

Files a link should never reach are written beside the folder (`folder.parent / "outside"`), so
the folder must sit in a folder of its own run (as the bases are built).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.harness.builders import fara_folder, png_bytes, write_core_log, write_final_answer, write_score
from tests.harness.verifier_files import write_hand_written
from webeval_core.reading.folderreader import LOG_READ_LIMIT
from webeval_core.reading.scorefiles import SHARED_MARK, share_long_strings

Mutation = Callable[[Path], object]
"""Changes one thing in a trajectory folder (its return value is ignored)."""

REPO = Path(__file__).resolve().parents[2]
_SAMPLE_TRAJ = REPO / "sample_runs" / "runs"
WTB_SAMPLE = (
    _SAMPLE_TRAJ
    / "WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebTailBench_sample/0/traj/alltrails_find_23"
)
"""A sample Fara folder with task_data.json, core.log and a verifier's score file."""
SOM_SAMPLE = _SAMPLE_TRAJ / "WebSurfer-som-100/gpt-4o-som/demo/WebArenaVerified_sample/0/traj/27"
"""A sample solver folder (screenshot_1..N, reasoning tokens, an official verdict, a HAR)."""

TASK = "alltrails_find_23"
OFFICIAL = "webarena-verified-1.2.3-cb88e51c"
ENGINE_RESPONSE = {
    "engine": {"name": "webarena-verified", "version": "1.2.3"},
    "status": "success",
    "score": 1.0,
    "details": [{"evaluator": "AgentResponseEvaluator", "score": 1, "ok": True}],
}
INFO_LOG = (
    "2025-11-14 14:35:10,001 [INFO] webeval.core.abc - [Execution abc] Start\n"
    "2025-11-14 14:35:11,002 [INFO] webeval.core.abc - Browser ready: https://www.alltrails.com/\n"
    "2025-11-14 14:38:09,120 [INFO] webeval.core.abc - [Execution abc] Done\n"
)
ERROR_LINE = "2025-11-14 14:36:10,002 [ERROR] webeval.core.abc - [Execution abc] Error running task: boom\n"
TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "run.py", line 1, in <module>\n'
    "playwright._impl._errors.TimeoutError: Page.goto: Timeout 30000ms exceeded.\n"
)


def rich_folder(root: Path) -> Path:
    """`fara_folder` with every file the glance reads, each ordinary."""
    folder = fara_folder(root, TASK)
    write_final_answer(
        folder,
        TASK,
        screenshots=sorted(p.name for p in folder.glob("screenshot*.png")),
        token_usage={
            "FaraAgent": {
                "prompt_tokens": 23383,
                "completion_tokens": 1920,
                "reasoning_tokens": 7,
                "num_calls": 5,
            },
            "judge": {"prompt_tokens": 812, "completion_tokens": 64},
        },
    )
    write_core_log(folder, INFO_LOG)
    task_data = {
        "task_proposal": "Find the longest trail in Yosemite.",
        "task_summary": "Longest Yosemite trail",
        "website": "https://www.alltrails.com",
    }
    (folder / "task_data.json").write_text(json.dumps(task_data, indent=2))
    write_score(folder, "gpt_eval", 1.0, "The agent named the longest trail: correct.")
    write_score(folder, OFFICIAL, 1.0, json.dumps(ENGINE_RESPONSE))
    write_hand_written(folder)
    return folder


def _sample_copy(sample: Path) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        root.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copytree(sample, root / sample.name, symlinks=True))

    return build


BASES: dict[str, Callable[[Path], Path]] = {
    "builder": rich_folder,
    "wtb_sample": _sample_copy(WTB_SAMPLE),
    "som_sample": _sample_copy(SOM_SAMPLE),
}
"""Builders of an ordinary folder under a root (the run folder), by name."""

MUTATIONS: dict[str, Mutation] = {}
"""One change each, by name (the test id)."""


def _add(name: str, change: Mutation) -> None:
    if name in MUTATIONS:
        raise ValueError(f"two mutations named {name}")
    MUTATIONS[name] = change


# ---- locating and rewriting files --------------------------------------------------------------

Locate = Callable[[Path], Path]
_DROP: Any = object()  # as a value: remove the key
_FIRST = "<first>"  # as a path step: the first key of that object (the token component)
_RAW = "@@raw-json@@"


def answer_file(folder: Path) -> Path:
    """The folder's answer file (the first by name)."""
    return min(folder.glob("*_final_answer.json"))


def _named(name: str) -> Locate:
    return lambda folder: folder / name


def _score_file(name: str = "gpt_eval") -> Locate:
    return lambda folder: folder / "scores" / f"{name}.json"


def _set_json(locate: Locate, path: tuple[str, ...], value: Any = _DROP, raw: str | None = None) -> Mutation:
    """Set (or drop) one key of a JSON file, `raw` written as is (NaN, 1e400, 20 digits...)."""

    def change(folder: Path) -> None:
        file = locate(folder)
        content = json.loads(file.read_text(encoding="utf-8")) if file.exists() else {}
        node = content
        for step in path[:-1]:
            node = node.setdefault(next(iter(node), "FaraAgent") if step == _FIRST else step, {})
        last = next(iter(node), "FaraAgent") if path[-1] == _FIRST else path[-1]
        if raw is not None:
            node[last] = _RAW
        elif value is _DROP:
            node.pop(last, None)
        else:
            node[last] = value
        text = json.dumps(content, indent=2, ensure_ascii=False)
        file.parent.mkdir(exist_ok=True)
        file.write_text(text.replace(f'"{_RAW}"', raw) if raw is not None else text, encoding="utf-8")

    return change


def _emptied(locate: Locate, folder: Path) -> Path:
    """The mutated file's place, its folder made and whatever was there removed."""
    file = locate(folder)
    file.parent.mkdir(exist_ok=True)
    if file.is_symlink() or file.exists():
        file.unlink()
    return file


def _write(locate: Locate, data: str | bytes) -> Mutation:
    def change(folder: Path) -> None:
        file = _emptied(locate, folder)
        file.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)

    return change


def _rewrite(locate: Locate, edit: Callable[[bytes], bytes]) -> Mutation:
    def change(folder: Path) -> None:
        file = locate(folder)
        file.write_bytes(edit(file.read_bytes()))

    return change


def _remove(locate: Locate) -> Mutation:
    def change(folder: Path) -> None:
        file = locate(folder)
        if file.is_dir() and not file.is_symlink():
            shutil.rmtree(file)
        else:
            file.unlink()

    return change


def _fifo(locate: Locate) -> Mutation:
    def change(folder: Path) -> None:
        os.mkfifo(_emptied(locate, folder))

    return change


def _directory(locate: Locate) -> Mutation:
    def change(folder: Path) -> None:
        file = _emptied(locate, folder)
        file.mkdir()
        (file / "inside.json").write_text("{}")

    return change


def _link_inside(locate: Locate) -> Mutation:
    """The file moved to a name no reader looks for, and linked back under its own name."""

    def change(folder: Path) -> None:
        file = locate(folder)
        moved = folder / f"moved-{file.name}.data"
        file.rename(moved)
        file.symlink_to(os.path.relpath(moved, file.parent))

    return change


def _link_outside(locate: Locate, content: str | bytes | None = None) -> Mutation:
    """The file replaced by a link to a copy outside the folder (`content` in it, if given), which
    a reader that followed it would read: its copy differs from what the folder held."""

    def change(folder: Path) -> None:
        file = locate(folder)
        outside = folder.parent / "outside"
        outside.mkdir(exist_ok=True)
        target = outside / file.name
        data = content if content is not None else file.read_bytes()
        target.write_bytes(data.encode() if isinstance(data, str) else data)
        if file.exists() or file.is_symlink():
            _remove(locate)(folder)
        file.symlink_to(target)

    return change


def _link_to(locate: Locate, target: str) -> Mutation:
    def change(folder: Path) -> None:
        file = locate(folder)
        if file.exists() or file.is_symlink():
            file.unlink()
        file.symlink_to(target)

    return change


def _sparse_past(locate: Locate, size: int) -> Mutation:
    """The file made `size` bytes long, its end a hole of NULs (cheap to write, read as bytes)."""

    def change(folder: Path) -> None:
        os.truncate(locate(folder), size)

    return change


def _both(*changes: Mutation) -> Mutation:
    def change(folder: Path) -> None:
        for one in changes:
            one(folder)

    return change


def _answer_json(text: str | bytes) -> Mutation:
    return _write(answer_file, text)


def _answer_edit(edit: Callable[[bytes], bytes]) -> Mutation:
    return _rewrite(answer_file, edit)


def _nest(levels: int) -> str:
    return "[" * levels + "]" * levels


# ---- the answer file: presence, links, bytes ---------------------------------------------------


def _fifo_outside(folder: Path) -> None:
    target = folder.parent / "outside" / answer_file(folder).name
    target.unlink()
    os.mkfifo(target)


_add("unchanged", lambda folder: None)
_add("answer_missing", _remove(answer_file))


def _second_answer(name: str, final_answer: str) -> Mutation:
    def change(folder: Path) -> None:
        content = json.loads(answer_file(folder).read_text(encoding="utf-8"))
        content["final_answer"] = final_answer
        (folder / name).write_text(json.dumps(content))

    return change


def _answer_renamed(new_name: str) -> Mutation:
    def change(folder: Path) -> None:
        answer_file(folder).rename(folder / new_name)

    return change


_add("answer_two_files", _second_answer("zzz_other_final_answer.json", "a second answer"))
_add("answer_two_files_first_sorts_first", _second_answer("000_final_answer.json", "a second answer"))
_add(
    "answer_two_files_identical",
    _second_answer("zzz_copy_final_answer.json", "The longest trail is Half Dome."),
)
_add("answer_plain_answer_suffix", _answer_renamed(f"{TASK}_answer.json"))
_add("answer_plain_answer_beside", _second_answer(f"{TASK}_answer.json", "a plain answer file"))
_add("answer_empty_task_id", _answer_renamed("_final_answer.json"))
_add("answer_unicode_task_id", _answer_renamed("t\u00e2che\u2028\u00b2 \u202e_final_answer.json"))
_add("answer_named_like_a_folder_elsewhere", _answer_renamed("other_task_final_answer.json"))
_add("answer_symlink_inside", _link_inside(answer_file))
_add("answer_symlink_outside", _link_outside(answer_file, json.dumps({"final_answer": "FROM OUTSIDE"})))
_add("answer_symlink_outside_fifo", _both(_link_outside(answer_file), _fifo_outside))
_add("answer_symlink_dangling", _link_to(answer_file, "no-such-file.json"))
_add("answer_symlink_absolute_inside", lambda f: _link_to(answer_file, str(f / "times.json"))(f))
_add("answer_symlink_loop", lambda f: _link_to(answer_file, answer_file(f).name)(f))
_add("answer_fifo", _fifo(answer_file))
_add("answer_directory", _directory(answer_file))


def _unreadable(locate: Locate) -> Mutation:
    def change(folder: Path) -> None:
        locate(folder).chmod(0)

    return change


_add("answer_unreadable_mode_000", _unreadable(answer_file))
_add("answer_not_object_list", _answer_json("[]"))
_add("answer_not_object_string", _answer_json('"The longest trail is Half Dome."'))
_add("answer_not_object_number", _answer_json("5"))
_add("answer_not_object_true", _answer_json("true"))
_add("answer_null", _answer_json("null"))
_add("answer_empty_object", _answer_json("{}"))
_add("answer_empty_file", _answer_json(b""))
_add("answer_whitespace_only", _answer_json(" \n\t\r\n"))
_add("answer_unicode_whitespace_only", _answer_json("\u00a0\u2028\u3000"))
_add("answer_bom", _answer_edit(lambda data: b"\xef\xbb\xbf" + data))
_add("answer_bom_twice", _answer_edit(lambda data: b"\xef\xbb\xbf\xef\xbb\xbf" + data))
_add("answer_bom_after_space", _answer_edit(lambda data: b" \xef\xbb\xbf" + data))
_add("answer_utf16", _answer_edit(lambda data: data.decode("utf-8").encode("utf-16")))
_add("answer_invalid_utf8_bytes", _answer_edit(lambda data: data.replace(b"Half", b"H\xffalf", 1)))
_add("answer_invalid_utf8_outside_text", _answer_edit(lambda data: data.replace(b"{", b"{\xff", 1)))
_add("answer_latin1", _set_json(answer_file, ("final_answer",), "caf\u00e9 na\u00efve"))
_add("answer_nan", _set_json(answer_file, ("token_usage", _FIRST, "prompt_tokens"), raw="NaN"))
_add("answer_infinity", _set_json(answer_file, ("token_usage", _FIRST, "completion_tokens"), raw="Infinity"))
_add("answer_minus_infinity_extra_key", _set_json(answer_file, ("cost",), raw="-Infinity"))
_add("answer_nan_in_env_state", _set_json(answer_file, ("env_state_json",), raw='{"x": [1, NaN]}'))
_add("answer_nan_final_answer", _set_json(answer_file, ("final_answer",), raw="NaN"))
_add("answer_20_digit_tokens", _set_json(answer_file, ("token_usage", _FIRST, "prompt_tokens"), raw="9" * 20))
_add("answer_19_digit_tokens", _set_json(answer_file, ("token_usage", _FIRST, "prompt_tokens"), raw="9" * 19))
_add(
    "answer_20_digit_negative",
    _set_json(answer_file, ("token_usage", _FIRST, "prompt_tokens"), raw="-" + "9" * 20),
)
_add("answer_20_digit_extra_key", _set_json(answer_file, ("run_id",), raw="1" * 20))
_add("answer_5000_digit_extra_key", _set_json(answer_file, ("steps",), raw="9" * 5000))
_add("answer_1e400", _set_json(answer_file, ("token_usage", _FIRST, "prompt_tokens"), raw="1e400"))
_add("answer_1e400_extra_key", _set_json(answer_file, ("cost",), raw="1e400"))
_add("answer_duplicate_keys", _answer_edit(lambda d: d.replace(b"{", b'{"final_answer": "FIRST COPY",', 1)))
_add(
    "answer_duplicate_is_aborted",
    _answer_edit(lambda d: d.replace(b"{", b'{"is_aborted": true, "final_answer": 5,', 1)),
)
_add("answer_lone_surrogate", _set_json(answer_file, ("final_answer",), raw='"Half \\ud800 Dome"'))
_add("answer_lone_surrogate_extra_key", _set_json(answer_file, ("note",), raw='"\\udfff"'))
_add(
    "answer_surrogate_pair_escape",
    _set_json(answer_file, ("final_answer",), raw='"Half Dome \\ud83d\\ude00"'),
)
_add(
    "answer_escaped_unicode",
    _set_json(answer_file, ("final_answer",), raw='"Half \\u00e9 \\u2028 Dome \\u0000"'),
)
_add("answer_nesting_1000", _set_json(answer_file, ("env_state_json",), raw=_nest(1000)))
_add("answer_nesting_1030", _set_json(answer_file, ("env_state_json",), raw=_nest(1030)))
_add("answer_nesting_100000", _set_json(answer_file, ("env_state_json",), raw=_nest(100_000)))
_add("answer_trailing_garbage", _answer_edit(lambda data: data + b"\n}"))
_add("answer_trailing_nul", _answer_edit(lambda data: data + b"\x00"))
_add("answer_trailing_second_document", _answer_edit(lambda data: data + b"\n{}"))
_add("answer_truncated", _answer_edit(lambda data: data[: len(data) // 2]))
_add("answer_crlf", _answer_edit(lambda data: data.replace(b"\n", b"\r\n")))
_add(
    "answer_compact", _answer_edit(lambda data: json.dumps(json.loads(data), separators=(",", ":")).encode())
)
_add("answer_single_quotes", _answer_edit(lambda data: data.replace(b'"final_answer"', b"'final_answer'")))
_add("answer_trailing_comma", _answer_edit(lambda data: data.rstrip().removesuffix(b"}") + b",}"))
_add("answer_comment", _answer_edit(lambda data: b"// a comment\n" + data))
_add("answer_huge_text", _set_json(answer_file, ("final_answer",), "Half Dome " * 200_000))

# ---- the answer's fields -----------------------------------------------------------------------

_ANSWER_FIELDS: dict[str, tuple[tuple[str, ...], Any]] = {
    "final_answer_dict": (("final_answer",), {"b": 1, "a": [1.0, 1e16, 1e-7, "\u00e9\u4e2d", None, True]}),
    "final_answer_dict_nested_escape": (("final_answer",), {"q": 'he said "hi"\n\t\\', "e": "\u2028\x7f"}),
    "final_answer_empty_dict": (("final_answer",), {}),
    "final_answer_list": (("final_answer",), ["Half Dome", 16.3, {"x": None}]),
    "final_answer_empty_list": (("final_answer",), []),
    "final_answer_int": (("final_answer",), 42),
    "final_answer_float": (("final_answer",), 4.5),
    "final_answer_bool": (("final_answer",), True),
    "final_answer_null": (("final_answer",), None),
    "final_answer_missing": (("final_answer",), _DROP),
    "final_answer_empty": (("final_answer",), ""),
    "final_answer_spaces": (("final_answer",), "   "),
    "final_answer_no_answer": (("final_answer",), "<no_answer>"),
    "final_answer_no_answer_spaced": (("final_answer",), " <no_answer>"),
    "final_answer_no_answer_upper": (("final_answer",), "<NO_ANSWER>"),
    "final_answer_nul": (("final_answer",), "Half\x00Dome"),
    "is_aborted_true": (("is_aborted",), True),
    "is_aborted_1": (("is_aborted",), 1),
    "is_aborted_0": (("is_aborted",), 0),
    "is_aborted_2": (("is_aborted",), 2),
    "is_aborted_float_1": (("is_aborted",), 1.0),
    "is_aborted_str_true": (("is_aborted",), "true"),
    "is_aborted_str_True": (("is_aborted",), "True"),
    "is_aborted_str_yes": (("is_aborted",), "yes"),
    "is_aborted_str_on": (("is_aborted",), "on"),
    "is_aborted_str_1": (("is_aborted",), "1"),
    "is_aborted_str_false": (("is_aborted",), "false"),
    "is_aborted_str_maybe": (("is_aborted",), "maybe"),
    "is_aborted_null": (("is_aborted",), None),
    "is_aborted_list": (("is_aborted",), [True]),
    "is_aborted_missing": (("is_aborted",), _DROP),
    "screenshots_str": (("screenshots",), "screenshot0.png"),
    "screenshots_list_with_int": (("screenshots",), ["screenshot0.png", 1]),
    "screenshots_list_with_null": (("screenshots",), [None]),
    "screenshots_null": (("screenshots",), None),
    "screenshots_dict": (("screenshots",), {"0": "screenshot0.png"}),
    "screenshots_empty": (("screenshots",), []),
    "screenshots_missing": (("screenshots",), _DROP),
    "is_rel_paths_false": (("is_rel_paths",), False),
    "is_rel_paths_str": (("is_rel_paths",), "no"),
    "is_rel_paths_2": (("is_rel_paths",), 2),
    "is_rel_paths_null": (("is_rel_paths",), None),
    "token_usage_list": (("token_usage",), [{"prompt_tokens": 1}]),
    "token_usage_null": (("token_usage",), None),
    "token_usage_str": (("token_usage",), "23383"),
    "token_usage_empty": (("token_usage",), {}),
    "token_usage_missing": (("token_usage",), _DROP),
    "token_usage_inner_list": (("token_usage", _FIRST), [23383, 1920]),
    "token_usage_inner_null": (("token_usage", _FIRST), None),
    "token_usage_inner_int": (("token_usage", _FIRST), 5),
    "token_usage_inner_empty": (("token_usage", _FIRST), {}),
    "token_usage_inner_only_extras": (("token_usage", _FIRST), {"cost": 0.5, "model": "x"}),
    "token_usage_second_component": (("token_usage", "Judge2"), {"prompt_tokens": 3, "num_calls": 1}),
    "token_usage_second_component_reasoning": (("token_usage", "Judge2"), {"reasoning_tokens": 0}),
    "prompt_tokens_float_whole": (("token_usage", _FIRST, "prompt_tokens"), 3.0),
    "prompt_tokens_float_fraction": (("token_usage", _FIRST, "prompt_tokens"), 3.5),
    "prompt_tokens_float_1e20": (("token_usage", _FIRST, "prompt_tokens"), 1e20),
    "prompt_tokens_str": (("token_usage", _FIRST, "prompt_tokens"), "3"),
    "prompt_tokens_str_float": (("token_usage", _FIRST, "prompt_tokens"), "3.0"),
    "prompt_tokens_str_spaced": (("token_usage", _FIRST, "prompt_tokens"), " 3 "),
    "prompt_tokens_str_underscore": (("token_usage", _FIRST, "prompt_tokens"), "1_000"),
    "prompt_tokens_str_word": (("token_usage", _FIRST, "prompt_tokens"), "many"),
    "prompt_tokens_true": (("token_usage", _FIRST, "prompt_tokens"), True),
    "prompt_tokens_false": (("token_usage", _FIRST, "prompt_tokens"), False),
    "prompt_tokens_null": (("token_usage", _FIRST, "prompt_tokens"), None),
    "prompt_tokens_negative": (("token_usage", _FIRST, "prompt_tokens"), -5),
    "prompt_tokens_zero": (("token_usage", _FIRST, "prompt_tokens"), 0),
    "prompt_tokens_huge": (("token_usage", _FIRST, "prompt_tokens"), 10**30),
    "prompt_tokens_list": (("token_usage", _FIRST, "prompt_tokens"), [3]),
    "prompt_tokens_missing": (("token_usage", _FIRST, "prompt_tokens"), _DROP),
    "completion_tokens_str": (("token_usage", _FIRST, "completion_tokens"), "1920"),
    "completion_tokens_float_whole": (("token_usage", _FIRST, "completion_tokens"), 1920.0),
    "reasoning_tokens_null": (("token_usage", _FIRST, "reasoning_tokens"), None),
    "reasoning_tokens_int": (("token_usage", _FIRST, "reasoning_tokens"), 11),
    "reasoning_tokens_zero": (("token_usage", _FIRST, "reasoning_tokens"), 0),
    "reasoning_tokens_str": (("token_usage", _FIRST, "reasoning_tokens"), "11"),
    "reasoning_tokens_float_whole": (("token_usage", _FIRST, "reasoning_tokens"), 11.0),
    "reasoning_tokens_bool": (("token_usage", _FIRST, "reasoning_tokens"), True),
    "reasoning_tokens_word": (("token_usage", _FIRST, "reasoning_tokens"), "none"),
    "reasoning_tokens_missing": (("token_usage", _FIRST, "reasoning_tokens"), _DROP),
    "num_calls_null": (("token_usage", _FIRST, "num_calls"), None),
    "num_calls_int": (("token_usage", _FIRST, "num_calls"), 6),
    "num_calls_str": (("token_usage", _FIRST, "num_calls"), "6"),
    "num_calls_negative": (("token_usage", _FIRST, "num_calls"), -1),
    "num_calls_float_fraction": (("token_usage", _FIRST, "num_calls"), 6.5),
    "token_usage_inner_extra_key": (("token_usage", _FIRST, "cached_tokens"), 5),
    "token_usage_inner_extra_dict": (("token_usage", _FIRST, "details"), {"audio": 1, "nan": None}),
    "answer_extra_key": (("agent_version",), "2.1"),
    "answer_extra_key_nested": (("metadata",), {"a": [1, {"b": None}], "final_answer": "not this"}),
    "answer_extra_key_named_like_a_field": (("Final_Answer",), "not this either"),
    "env_state_json_object": (("env_state_json",), {"url": "https://x", "cookies": []}),
    "env_state_raw_null": (("env_state_raw",), None),
}
for _name, (_path, _value) in _ANSWER_FIELDS.items():
    _add(_name, _set_json(answer_file, _path, _value))
_add(
    "final_answer_no_answer_aborted",
    _both(
        _set_json(answer_file, ("final_answer",), "<no_answer>"),
        _set_json(answer_file, ("is_aborted",), True),
    ),
)

# ---- web_surfer.log ------------------------------------------------------------------------------

_LOG = _named("web_surfer.log")


def _log_edit(edit: Callable[[bytes], bytes]) -> Mutation:
    return _rewrite(_LOG, edit)


def _each_line(edit: Callable[[bytes], bytes]) -> Mutation:
    return _log_edit(lambda data: b"\n".join(edit(line) if line else line for line in data.split(b"\n")))


def _first_line(edit: Callable[[bytes], bytes]) -> Mutation:
    def change(data: bytes) -> bytes:
        first, _, rest = data.partition(b"\n")
        return edit(first) + b"\n" + rest

    return _log_edit(change)


def _nan_in_line(line: bytes) -> bytes:
    return line.replace(b"{", b'{"score": NaN, "big": 1e400, ', 1)


_add("log_missing", _remove(_LOG))
_add("log_empty", _write(_LOG, b""))
_add("log_only_newlines", _write(_LOG, b"\n\n\n"))
_add("log_fifo", _fifo(_LOG))
_add("log_directory", _directory(_LOG))
_add("log_symlink_inside", _link_inside(_LOG))
_add("log_symlink_outside", _link_outside(_LOG))
_add("log_symlink_dangling", _link_to(_LOG, "gone.log"))
_add("log_unreadable_mode_000", _unreadable(_LOG))
_add("log_non_json_lines", _log_edit(lambda data: data + TRACEBACK.encode() + b"not json at all\n{oops\n"))
_add("log_non_json_between", _log_edit(lambda data: data.replace(b"\n", b"\nplain text line\n", 3)))
_add("log_truncated_last_line", _log_edit(lambda data: data.rstrip(b"\n")[:-40]))
_add("log_no_final_newline", _log_edit(lambda data: data.rstrip(b"\n")))
_add("log_nan_in_line", _each_line(_nan_in_line))
_add("log_20_digit_in_line", _each_line(lambda line: line.replace(b"{", b'{"n": ' + b"9" * 20 + b", ", 1)))
_add(
    "log_5000_digit_in_line", _each_line(lambda line: line.replace(b"{", b'{"n": ' + b"9" * 5000 + b", ", 1))
)
_add("log_lone_surrogate_in_line", _each_line(lambda line: line.replace(b"{", b'{"s": "\\ud800", ', 1)))
_add(
    "log_deep_nested_line",
    _first_line(lambda line: line.replace(b"{", b'{"d": ' + _nest(1030).encode() + b", ", 1)),
)
_add(
    "log_very_deep_nested_line",
    _first_line(lambda line: line.replace(b"{", b'{"d": ' + _nest(50_000).encode() + b", ", 1)),
)
_add("log_trailing_text_after_json", _each_line(lambda line: line + b" trailing words"))
_add("log_trailing_second_object", _each_line(lambda line: line + b" {}"))
_add("log_crlf", _log_edit(lambda data: data.replace(b"\n", b"\r\n")))
_add("log_cr_only", _log_edit(lambda data: data.replace(b"\n", b"\r")))
_add("log_nbsp_around_lines", _each_line(lambda line: "\u00a0".encode() + line + "\u00a0".encode()))
_add("log_u2028_around_lines", _each_line(lambda line: "\u2028".encode() + line + "\u2028".encode()))
_add("log_ideographic_space_before", _each_line(lambda line: "\u3000".encode() + line))
_add("log_tabs_around_lines", _each_line(lambda line: b"\t \x0b\x0c" + line + b" \t\x1c\x1d\x1e\x1f\x85"))
_add("log_u2028_separators", _log_edit(lambda data: data.replace(b"\n", "\u2028".encode())))
_add("log_nel_separators", _log_edit(lambda data: data.replace(b"\n", "\x85".encode())))
_add("log_formfeed_separators", _log_edit(lambda data: data.replace(b"\n", b"\x0c")))
_add("log_vertical_tab_separators", _log_edit(lambda data: data.replace(b"\n", b"\x0b")))
_add("log_invalid_utf8", _log_edit(lambda data: data.replace(b"Thought", b"Th\xffought")))
_add("log_invalid_utf8_opening", _each_line(lambda line: b"\xff" + line))
_add("log_invalid_utf8_latin1_brace", _each_line(lambda line: b"\xc2" + line))
_add("log_utf8_bom", _log_edit(lambda data: b"\xef\xbb\xbf" + data))
_add("log_bom_every_line", _each_line(lambda line: b"\xef\xbb\xbf" + line))
_add("log_nul_bytes", _log_edit(lambda data: data.replace(b"\n", b"\x00\n")))
_add("log_blank_lines", _log_edit(lambda data: data.replace(b"\n", b"\n\n  \n")))
_add(
    "log_lines_doubled",
    _log_edit(lambda data: b"".join(line + b"\n" + line + b"\n" for line in data.splitlines())),
)
_add("log_json_arrays", _log_edit(lambda data: data + b'[1, 2]\n["executing tool"]\n'))
_add("log_json_scalars", _log_edit(lambda data: data + b'"executing tool"\n42\nnull\n'))
_add("log_utf16", _log_edit(lambda data: data.decode("utf-8").encode("utf-16")))
_add("log_over_read_limit", _sparse_past(_LOG, LOG_READ_LIMIT + 1))
_add("log_huge_ish", _log_edit(lambda data: data * 200))

# ---- times.json ----------------------------------------------------------------------------------

_TIMES = _named("times.json")
_START = 1763127310.0

_add("times_missing", _remove(_TIMES))
_add("times_null", _write(_TIMES, "null"))
_add("times_list", _write(_TIMES, "[1, 2, 3]"))
_add("times_string", _write(_TIMES, '"61.0"'))
_add("times_empty_object", _write(_TIMES, "{}"))
_add("times_empty_file", _write(_TIMES, ""))
_add("times_invalid_json", _write(_TIMES, '{"duration": 61.0'))
_add("times_bom", _rewrite(_TIMES, lambda data: b"\xef\xbb\xbf" + data))
_add("times_fifo", _fifo(_TIMES))
_add("times_directory", _directory(_TIMES))
_add("times_symlink_inside", _link_inside(_TIMES))
_add("times_symlink_outside", _link_outside(_TIMES, '{"duration": 1.0}'))
_TIMES_VALUES: dict[str, dict[str, Any]] = {
    "times_duration_str": {"duration": "61.5"},
    "times_duration_str_spaced": {"duration": " 61.5 "},
    "times_duration_int": {"duration": 61},
    "times_duration_bool": {"duration": True},
    "times_duration_zero": {"duration": 0},
    "times_duration_negative": {"duration": -3.5},
    "times_duration_1e20": {"duration": 1e20},
    "times_duration_just_below_ten_years": {"duration": 315359999.0},
    "times_duration_ten_years": {"duration": 315360000.0},
    "times_duration_list": {"duration": [61.0]},
    "times_duration_word": {"duration": "a minute"},
    "times_duration_str_nan": {"duration": "nan"},
    "times_duration_str_inf": {"duration": "inf"},
    "times_duration_null_start_end": {"duration": None},
    "times_only_start": {"duration": None, "end_time": None},
    "times_only_end": {"duration": None, "start_time": None},
    "times_end_before_start": {"duration": None, "end_time": _START - 100.0},
    "times_start_year_3000": {"start_time": 32503680000.0},
    "times_start_year_3000_no_duration": {"start_time": 32503680000.0, "duration": None},
    "times_start_year_10000": {"start_time": 253402300800.0},
    "times_start_year_10000_no_duration": {"start_time": 253402300800.0, "duration": None},
    "times_start_negative": {"start_time": -1.0, "duration": None},
    "times_start_huge_negative": {"start_time": -1e15},
    "times_start_1e20": {"start_time": 1e20},
    "times_start_str": {"start_time": str(_START), "duration": None},
    "times_start_str_inf": {"start_time": "inf"},
    "times_start_str_nan": {"start_time": "nan", "duration": None},
    "times_end_bool": {"end_time": False, "duration": None},
    "times_extra_keys": {"timezone": "UTC+1", "nested": {"a": 1}},
    "times_int_times": {"start_time": 1763127310, "end_time": 1763127371, "duration": None},
    "times_all_null": {"start_time": None, "end_time": None, "duration": None},
}


def _times(fields: dict[str, Any]) -> Mutation:
    def change(folder: Path) -> None:
        content = {"start_time": _START, "end_time": _START + 61.25, "duration": 61.25}
        content.update(fields)
        (folder / "times.json").write_text(json.dumps({k: v for k, v in content.items() if v is not _DROP}))

    return change


for _name, _fields in _TIMES_VALUES.items():
    _add(_name, _times(_fields))
_add(
    "times_duration_neg_zero",
    _write(_TIMES, '{"start_time": 1763127310.0, "end_time": 1763127310.0, "duration": -0.0}'),
)
_add(
    "times_duration_nan",
    _write(_TIMES, '{"start_time": 1763127310.0, "end_time": 1763127371.0, "duration": NaN}'),
)
_add("times_duration_1e400", _write(_TIMES, '{"start_time": 1763127310.0, "duration": 1e400}'))
_add("times_duration_20_digits", _write(_TIMES, '{"duration": ' + "9" * 20 + "}"))
_add("times_duration_exponent", _write(_TIMES, '{"duration": 6.1E1}'))
_add("times_duplicate_duration", _write(_TIMES, '{"duration": 10.0, "duration": 20.0}'))
_add("times_start_end_subtraction_rounding", _write(_TIMES, '{"start_time": 0.1, "end_time": 0.3}'))

# ---- core.log ------------------------------------------------------------------------------------

_CORE = _named("core.log")
_add("core_log_missing", _remove(_CORE))
_add("core_log_empty", _write(_CORE, b""))
_add("core_log_info_only", _write(_CORE, INFO_LOG))
_add("core_log_error", _write(_CORE, INFO_LOG + ERROR_LINE))
_add("core_log_error_traceback", _write(_CORE, INFO_LOG + ERROR_LINE + TRACEBACK))
_add("core_log_two_errors", _write(_CORE, ERROR_LINE + INFO_LOG + ERROR_LINE.replace("boom", "second")))
_add("core_log_error_then_info", _write(_CORE, ERROR_LINE + INFO_LOG))
_add("core_log_critical", _write(_CORE, INFO_LOG + ERROR_LINE.replace("[ERROR]", "[CRITICAL]")))
_add("core_log_fatal", _write(_CORE, INFO_LOG + ERROR_LINE.replace("[ERROR]", "[FATAL]")))
_add("core_log_lowercase_error", _write(_CORE, INFO_LOG + ERROR_LINE.replace("[ERROR]", "[error]")))
_add("core_log_error_mark_in_info", _write(_CORE, INFO_LOG.replace("Start", "saw [ERROR] in the page")))
_add("core_log_error_mark_in_continuation", _write(_CORE, INFO_LOG + "  [ERROR] a continuation line\n"))
_add("core_log_error_crlf", _write(_CORE, (INFO_LOG + ERROR_LINE + TRACEBACK).replace("\n", "\r\n")))
_add("core_log_error_bad_date", _write(_CORE, INFO_LOG + ERROR_LINE.replace("2025-11-14", "2025-13-14")))
_add(
    "core_log_error_empty_message",
    _write(_CORE, INFO_LOG + "2025-11-14 14:36:10,002 [ERROR] webeval.core.abc -\n"),
)
_add("core_log_error_unicode_space", _write(_CORE, INFO_LOG + ERROR_LINE.replace("boom", "boom\u00a0\u2028")))
_add("core_log_error_text_before_record", _write(_CORE, "orphan text\n" + INFO_LOG + ERROR_LINE))
_add(
    "core_log_invalid_utf8",
    _write(
        _CORE, INFO_LOG.encode() + ERROR_LINE.replace("boom", "bo\udcffom").encode("utf-8", "surrogateescape")
    ),
)
_add("core_log_invalid_utf8_no_error", _write(_CORE, INFO_LOG.encode() + b"\xff\xfe broken\n"))
_add("core_log_huge_ish", _write(_CORE, INFO_LOG * 1000 + ERROR_LINE + INFO_LOG * 1000))
# Without an error record, so that reading stops at the limit (an error would make the full glance
# parse 64 MB of one record's NULs).
_add("core_log_over_read_limit", _both(_write(_CORE, INFO_LOG), _sparse_past(_CORE, LOG_READ_LIMIT + 1)))
_add("core_log_fifo", _fifo(_CORE))
_add("core_log_directory", _directory(_CORE))
_add("core_log_symlink_inside", _both(_write(_CORE, INFO_LOG + ERROR_LINE), _link_inside(_CORE)))
_add("core_log_symlink_outside", _link_outside(_CORE, INFO_LOG + ERROR_LINE))

# ---- task_data.json ------------------------------------------------------------------------------

_TASK_DATA = _named("task_data.json")


def _task_data(content: Any) -> Mutation:
    return _write(_TASK_DATA, json.dumps(content, ensure_ascii=False))


_add("task_data_missing", lambda folder: (folder / "task_data.json").unlink(missing_ok=True))
_add("task_data_null", _write(_TASK_DATA, "null"))
_add("task_data_list", _task_data(["Find the longest trail."]))
_add("task_data_string", _task_data("Find the longest trail."))
_add("task_data_empty_object", _task_data({}))
_add("task_data_invalid_json", _write(_TASK_DATA, "{'task': 'x'}"))
_add("task_data_nan", _write(_TASK_DATA, '{"task": "Find it.", "budget": NaN}'))
_add("task_data_fifo", _fifo(_TASK_DATA))
_add("task_data_symlink_outside", _link_outside(_TASK_DATA, '{"task": "FROM OUTSIDE"}'))
_TASK_DATAS: dict[str, dict[str, Any]] = {
    "task_data_text_whitespace": {"task_proposal": "  \n Find the longest trail.\t "},
    "task_data_text_unicode_whitespace": {"task": "\u3000\u00a0Find it.\u2028\u200b"},
    "task_data_first_key_blank": {"task_proposal": "   ", "task": "Second key.", "website": "  "},
    "task_data_first_key_not_text": {"task_proposal": ["x"], "intent": 5, "ques": "The question."},
    "task_data_summary_only": {"task_summary": "A summary.", "category": "x"},
    "task_data_text_keys_all": {k: f"{k} text" for k in ("goal", "instruction", "question", "ques", "task")},
    "task_data_site_name": {"task": "t", "site": "alltrails"},
    "task_data_site_url_www": {"website": "https://www.AllTrails.com:8443/path?q=1"},
    "task_data_site_url_no_www": {"start_url": "http://localhost:7780/admin"},
    "task_data_site_url_no_host": {"url": "https://"},
    "task_data_site_url_only_www": {"url": "https://www./x"},
    "task_data_site_url_ipv6": {"url": "http://[::1]:80/"},
    "task_data_site_url_userinfo": {"init_url": "https://user:pw@Www.Example.ORG/"},
    "task_data_site_url_bad_port": {"url": "https://example.com:99999999/"},
    "task_data_site_url_unicode_host": {"url": "https://www.b\u00fccher.de/"},
    "task_data_site_blank_then_url": {
        "website": " ",
        "site": "",
        "web_name": "Allrecipes",
        "url": "https://x.org",
    },
    "task_data_site_not_text": {"website": {"url": "https://x"}, "domain": "example.com"},
    "task_data_site_spaces": {"web": "  Booking.com  "},
    "task_data_site_scheme_only_text": {"site": "a://b"},
}
for _name, _content in _TASK_DATAS.items():
    _add(_name, _task_data(_content))

# ---- scores/ -------------------------------------------------------------------------------------

_SCORES = _named("scores")


def _score(score: Any, text: Any, name: str = "gpt_eval") -> Mutation:
    def change(folder: Path) -> None:
        write_score(folder, name, score, text)

    return change


def _score_raw(text: str, name: str = "gpt_eval") -> Mutation:
    return _write(_score_file(name), text)


def _shared_response(*, engine: bool) -> str:
    long = "The agent typed Yosemite. " * 300
    document: dict[str, Any] = {"raw": long, "parsed": long, "quoted": f"> {long}", "part": long[10:5000]}
    if engine:
        document["engine"] = {"name": "webarena-verified"}
    return json.dumps(share_long_strings(document))


def _scores_symlink_inside(folder: Path) -> None:
    (folder / "scores").rename(folder / "judged")
    (folder / "scores").symlink_to("judged", target_is_directory=True)


def _many_scores(folder: Path) -> None:
    for number in range(25):
        write_score(folder, f"judge_{number:02d}", number / 25, json.dumps({"engine": None, "n": number}))


def _dir_outside(folder: Path) -> None:
    outside = folder.parent / "outside" / "scores"
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.json").write_text('{"score": 1, "gpt_response_text": "from outside"}')
    shutil.rmtree(folder / "scores")
    (folder / "scores").symlink_to(outside, target_is_directory=True)


_add("scores_missing", lambda folder: shutil.rmtree(folder / "scores", ignore_errors=True))
_add(
    "scores_empty_folder",
    _both(lambda f: shutil.rmtree(f / "scores", ignore_errors=True), lambda f: (f / "scores").mkdir()),
)
_add("scores_a_file", _both(lambda f: shutil.rmtree(f / "scores", ignore_errors=True), _write(_SCORES, "{}")))
_add("scores_symlink_inside", _both(_score(1, "x"), _scores_symlink_inside))
_add("scores_symlink_outside", _both(_score(1, "x"), _dir_outside))
_add("scores_fifo", _both(lambda f: shutil.rmtree(f / "scores", ignore_errors=True), _fifo(_SCORES)))
_add("scores_non_json_file", _write(lambda f: f / "scores" / "notes.txt", "not a score"))
_add("scores_hidden_json", _write(lambda f: f / "scores" / ".hidden.json", '{"score": 1}'))
_add("scores_json_upper_suffix", _write(lambda f: f / "scores" / "judge.JSON", '{"score": 1}'))
_add("scores_bare_dot_json", _write(lambda f: f / "scores" / ".json", '{"score": 0.5}'))
_add("scores_json_directory", _directory(_score_file("folder_judge")))
_add("scores_nested_folder", _write(lambda f: f / "scores" / "sub" / "x.json", '{"score": 1}'))
_add("scores_broken_json", _score_raw('{"score": 1, "gpt_response_text": '))
_add("scores_empty_file", _score_raw(""))
_add("scores_list", _score_raw("[1, 2]"))
_add("scores_null", _score_raw("null"))
_add("scores_string_document", _score_raw('"1.0"'))
_add("scores_bom", _score_raw('\ufeff{"score": 1, "gpt_response_text": "ok"}'))
_add("scores_invalid_utf8", _write(_score_file(), b'{"score": 1, "gpt_response_text": "ok \xff"}'))
_add("scores_duplicate_score_key", _score_raw('{"score": 0, "score": 1, "gpt_response_text": "x"}'))
_add(
    "scores_extra_keys", _score_raw('{"score": 1, "gpt_response_text": "x", "model": "gpt-4o", "cost": NaN}')
)
_add("score_file_symlink_inside", _link_inside(lambda f: min((f / "scores").glob("*.json"))))
_add("score_file_symlink_outside", _both(_score(1, "x"), _link_outside(_score_file(), '{"score": 0.25}')))
_add("score_file_symlink_dangling", _link_to(_score_file("dangling"), "nowhere.json"))
_add("score_file_fifo", _fifo(_score_file()))
_add("score_file_unreadable_mode_000", _both(_score(1, "x"), _unreadable(_score_file())))
_add("score_many_files", _many_scores)
_SCORE_VALUES: dict[str, Any] = {
    "score_string": "1",
    "score_string_float": "0.5",
    "score_true": True,
    "score_false": False,
    "score_int": 1,
    "score_zero": 0,
    "score_negative": -1.5,
    "score_null": None,
    "score_list": [1],
    "score_dict": {"value": 1},
    "score_1e299": 1e299,
    "score_1e300": 1e300,
    "score_huge_int": 10**300,
    "score_huge_int_above": 10**301,
}
for _name, _value in _SCORE_VALUES.items():
    _add(_name, _score(_value, "The agent answered."))
_add("score_missing", _score_raw('{"gpt_response_text": "no score here"}'))
_add("score_nan", _score_raw('{"score": NaN, "gpt_response_text": "x"}'))
_add("score_infinity", _score_raw('{"score": -Infinity, "gpt_response_text": "x"}'))
_add("score_1e400", _score_raw('{"score": 1e400, "gpt_response_text": "x"}'))
_add("score_neg_zero", _score_raw('{"score": -0.0, "gpt_response_text": "x"}'))
_add("score_20_digits", _score_raw('{"score": ' + "1" * 20 + ', "gpt_response_text": "x"}'))
_add("score_5000_digits", _score_raw('{"score": ' + "1" * 5000 + ', "gpt_response_text": "x"}'))
_add("score_exponent_int", _score_raw('{"score": 1E0, "gpt_response_text": "x"}'))
_RESPONSES: dict[str, Any] = {
    "response_dict": {"b": 1, "engine": {"name": "x"}, "a": [1.0, 1e16, "\u00e9"]},
    "response_dict_without_engine": {"verdict": "pass", "reason": "fine\n"},
    "response_empty_dict": {},
    "response_list": [{"engine": 1}, 2.5, None],
    "response_int": 7,
    "response_float": 0.1,
    "response_big_float": 1e16,
    "response_bool": False,
    "response_null": None,
    "response_str_plain": "PASS. The agent was right.",
    "response_str_empty": "",
    "response_str_json_no_engine": json.dumps({"verdict": "pass", "score": 1}),
    "response_str_json_engine": json.dumps(ENGINE_RESPONSE),
    "response_str_json_engine_in_value": json.dumps({"note": "the engine room", "x": 1}),
    "response_str_json_code": json.dumps({"failure": {"error_code": "2.1"}}),
    "response_str_json_codes": json.dumps({"task_verification": {"ambiguity_codes": ["7.1"]}}),
    "response_str_escaped_engine": '{"\\u0065ngine": {"name": "x"}, "s": 1}',
    "response_str_escape_only": '{"a": "caf\\u00e9"}',
    "response_str_leading_space": "  \n " + json.dumps(ENGINE_RESPONSE),
    "response_str_leading_nbsp": "\u00a0" + json.dumps(ENGINE_RESPONSE),
    "response_str_trailing_text": json.dumps(ENGINE_RESPONSE) + " and some words",
    "response_str_array_engine": json.dumps([{"engine": "x"}, 1]),
    "response_str_scalar_engine": '"engine"',
    "response_str_number_engine": "1 engine",
    "response_str_broken_engine": '{"engine": {"name": ',
    "response_str_nan_engine": '{"engine": {"name": "x"}, "score": NaN, "big": 1e400}',
    "response_str_20_digits_engine": '{"engine": 1, "n": ' + "9" * 20 + "}",
    "response_str_lone_surrogate_engine": '{"engine": "\\ud800"}',
    "response_str_deep_engine": '{"engine": ' + _nest(1030) + "}",
    "response_str_very_deep_engine": '{"engine": ' + _nest(100_000) + "}",
    "response_str_duplicate_engine": '{"engine": 1, "engine": 2}',
    "response_str_shared_refs_engine": _shared_response(engine=True),
    "response_str_shared_refs_no_engine": _shared_response(engine=False),
    "response_str_broken_shared_ref": json.dumps({"engine": 1, "x": SHARED_MARK + '[[["nope"], 0, 5]]'}),
    "response_str_shared_ref_to_number": json.dumps(
        {"engine": 1, "n": 5, "x": SHARED_MARK + '[[["n"], 0, 1]]'}
    ),
    "response_str_shared_mark_not_json": json.dumps({"engine": 1, "x": SHARED_MARK + "not json"}),
    "response_str_nul_escape_no_mark": json.dumps({"engine": 1, "x": "a\x00b"}),
}
for _name, _value in _RESPONSES.items():
    _add(_name, _score(1.0, _value))
_add("response_missing", _score_raw('{"score": 1}'))
_add("response_raw_nan", _score_raw('{"score": 1, "gpt_response_text": NaN}'))
_add("response_raw_1e400", _score_raw('{"score": 1, "gpt_response_text": 1e400}'))
_add("response_raw_20_digits", _score_raw('{"score": 1, "gpt_response_text": ' + "9" * 20 + "}"))
_add("response_dict_with_nan", _score_raw('{"score": 1, "gpt_response_text": {"engine": NaN}}'))
_add("response_lone_surrogate", _score_raw('{"score": 1, "gpt_response_text": "bad \\udc00 text"}'))
_add(
    "scores_first_file_rewritten_compact",
    _rewrite(lambda f: min((f / "scores").glob("*.json")), lambda d: json.dumps(json.loads(d)).encode()),
)


# ---- eval_result.json ----------------------------------------------------------------------------

_EVAL = _named("eval_result.json")
_add("eval_result_object", _write(_EVAL, json.dumps({"task_id": 27, "score": 1.0, "status": "success"})))
_add("eval_result_int_float_bool", _write(_EVAL, '{"a": 1, "b": 1.0, "c": true, "d": -0.0, "e": 1E2}'))
_add("eval_result_key_order", _write(_EVAL, '{"z": 1, "a": {"y": 2, "b": 3}}'))
_add("eval_result_big_int", _write(_EVAL, '{"n": ' + "9" * 20 + ', "m": -' + "9" * 25 + "}"))
_add(
    "eval_result_nested",
    _write(_EVAL, json.dumps({"evaluators": [{"name": "x", "details": {"a": [None, "\u00e9"]}}]})),
)
_add("eval_result_unicode_escapes", _write(_EVAL, '{"s": "\\u00e9\\u2028\\u0000\\ud83d\\ude00"}'))
_add("eval_result_lone_surrogate", _write(_EVAL, '{"s": "\\ud800"}'))
_add("eval_result_list", _write(_EVAL, "[1]"))
_add("eval_result_null", _write(_EVAL, "null"))
_add("eval_result_empty_object", _write(_EVAL, "{}"))
_add("eval_result_nan", _write(_EVAL, '{"score": NaN}'))
_add("eval_result_1e400", _write(_EVAL, '{"score": 1e400}'))
_add("eval_result_invalid", _write(_EVAL, '{"score": 1'))
_add("eval_result_empty_file", _write(_EVAL, ""))
_add("eval_result_bom", _write(_EVAL, '\ufeff{"score": 1}'))
_add("eval_result_duplicate_keys", _write(_EVAL, '{"score": 0, "score": 1}'))
_add("eval_result_deep", _write(_EVAL, '{"d": ' + _nest(1030) + "}"))
_add("eval_result_fifo", _fifo(_EVAL))
_add("eval_result_symlink_outside", _link_outside(_EVAL, '{"score": 1}'))
_add("eval_result_symlink_inside", _both(_write(_EVAL, '{"score": 1}'), _link_inside(_EVAL)))

# ---- screenshots ---------------------------------------------------------------------------------


def _screenshots(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith("screenshot"))


def _drop_screenshots(folder: Path) -> None:
    for path in _screenshots(folder):
        path.unlink()


def _add_files(*names: str, data: bytes | None = None) -> Mutation:
    def change(folder: Path) -> None:
        for name in names:
            (folder / name).write_bytes(png_bytes() if data is None else data)

    return change


def _listed_only(*listed: str, present: tuple[str, ...] | None = None) -> Mutation:
    """Screenshots under neither naming, listed in the answer (`present`: those written)."""
    return _both(
        _drop_screenshots,
        _add_files(*(listed if present is None else present)),
        _set_json(answer_file, ("screenshots",), list(listed)),
    )


def _rename_screenshots(pattern: str) -> Mutation:
    def change(folder: Path) -> None:
        for number, path in enumerate(_screenshots(folder)):
            path.rename(folder / pattern.format(number))

    return change


_add("screenshots_both_namings", _add_files("screenshot_1.png", "screenshot_2.png", "screenshot_3.png"))
_add("screenshots_solver_only", _rename_screenshots("screenshot_{}.png"))
_add("screenshots_fara_only", _rename_screenshots("screenshot{}.png"))
_add("screenshots_none", _drop_screenshots)
_add(
    "screenshots_none_listed_missing",
    _both(_drop_screenshots, _set_json(answer_file, ("screenshots",), ["a.png"])),
)
_add("screenshots_listed_only", _listed_only("frame_a.png", "frame_b.png"))
_add(
    "screenshots_listed_only_some_present",
    _listed_only("frame_a.png", "frame_b.png", present=("frame_b.png",)),
)
_add("screenshots_listed_duplicates", _listed_only("frame_a.png", "frame_a.png"))
_add("screenshots_listed_dot_slash", _listed_only("./frame_a.png", present=("frame_a.png",)))
_add(
    "screenshots_listed_absolute", lambda f: _listed_only(str(f / "frame_a.png"), present=("frame_a.png",))(f)
)
_add("screenshots_listed_outside", _listed_only("../outside.png", present=("frame_a.png",)))
_add("screenshots_listed_the_answer_file", lambda f: _listed_only(answer_file(f).name, present=())(f))
_add(
    "screenshots_listed_a_named_one", _set_json(answer_file, ("screenshots",), ["screenshot_77.png", "x.png"])
)
_add("screenshots_leading_zero", _add_files("screenshot01.png", "screenshot_001.png"))
_add("screenshots_unicode_digit", _add_files("screenshot\u0661.png", "screenshot\u0669\u0669.png"))
_add("screenshots_fullwidth_digit", _add_files("screenshot\uff11\uff12.png"))
_add(
    "screenshots_unicode_digit_only",
    _both(_drop_screenshots, _add_files("screenshot\u0661.png", "screenshot_\u0662.png")),
)
_add("screenshots_huge_number", _add_files("screenshot" + "9" * 30 + ".png"))
_add("screenshots_uppercase_ext", _add_files("screenshot42.PNG", "Screenshot43.png"))
_add(
    "screenshots_odd_names",
    _add_files("screenshot.png", "screenshot_.png", "screenshot-4.png", "screenshot4.png.bak"),
)
_add("screenshots_directory_named", lambda f: (f / "screenshot99.png").mkdir())
_add("screenshots_symlink", lambda f: (f / "screenshot99.png").symlink_to(_screenshots(f)[0].name))
_add("screenshots_symlink_outside", lambda f: (f / "screenshot99.png").symlink_to("/etc/hostname"))
_add("screenshots_fifo", lambda f: os.mkfifo(f / "screenshot98.png"))
_add("screenshots_not_png", _add_files("screenshot97.png", data=b"not a png"))
_add("screenshots_empty_file", _add_files("screenshot96.png", data=b""))

# ---- the folder --------------------------------------------------------------------------------


def _replace_by_file(folder: Path) -> None:
    shutil.rmtree(folder)
    folder.write_text("a file where the folder was")


def _only(*names: str) -> Mutation:
    def change(folder: Path) -> None:
        for path in folder.iterdir():
            if path.name in names:
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()

    return change


_add("folder_is_a_file", _replace_by_file)
_add("folder_missing", shutil.rmtree)
_add("folder_unreadable_mode_000", lambda folder: folder.chmod(0))
_add("folder_only_core_log", _both(_write(_CORE, INFO_LOG + ERROR_LINE), _only("core.log")))
_add("folder_only_log", _only("web_surfer.log"))
_add("folder_only_answer", lambda f: _only(answer_file(f).name)(f))
_add("folder_answer_and_agent_response", _write(_named("agent_response.json"), '{"status": "SUCCESS"}'))
_add(
    "folder_log_and_agent_response", _both(_remove(answer_file), _write(_named("agent_response.json"), "{}"))
)
_add("folder_hidden_files", _write(_named(".DS_Store"), b"\x00\x01"))
_add("folder_network_har_fifo", _fifo(_named("network.har")))
_add("folder_unrelated_symlink", lambda f: (f / "notes.txt").symlink_to("/etc/hostname"))
_add("folder_unrelated_fifo", _fifo(_named("pipe")))

UNREADABLE_BY_MODE = frozenset(name for name in MUTATIONS if name.endswith("mode_000"))
"""Mutations that rely on mode 000 refusing reads, which it does not for root."""
_ON_EVERY_BASE = (
    "unchanged",
    "final_answer_",
    "is_aborted_",
    "is_rel_paths_",
    "token_usage_",
    "prompt_tokens_",
    "completion_tokens_",
    "reasoning_tokens_",
    "num_calls_",
    "screenshots_",
    "log_",
)
_HEAVY = frozenset({"log_over_read_limit", "log_huge_ish"})  # megabytes read: once is enough


def bases_for(name: str) -> tuple[str, ...]:
    """The bases a mutation is made on: every base where what it changes differs between them (the
    answer's fields, the screenshot naming, the log's generation), else the builder's alone, which
    holds every file (so the test stays fast).
    """
    if name.startswith(_ON_EVERY_BASE) and name not in _HEAVY:
        return tuple(BASES)
    return ("builder",)


# ---- what the index's quick summary reads its own way ------------------------------------------


def _renamed_to_bytes(locate: Locate, name: bytes) -> Mutation:
    """The file renamed to bytes that are not UTF-8 (listed as lone surrogates)."""

    def change(folder: Path) -> None:
        os.rename(bytes(locate(folder)), os.path.join(bytes(locate(folder).parent), name))

    return change


def _second_official(folder: Path) -> None:
    write_score(
        folder, "webarena-verified-9.9.9-ffffffff", 0.0, json.dumps({**ENGINE_RESPONSE, "status": "failure"})
    )


_add("answer_name_not_utf8", _renamed_to_bytes(answer_file, b"t\xffche_final_answer.json"))
_add("score_file_name_not_utf8", _renamed_to_bytes(_score_file(), b"judge_\xff.json"))
_add("scores_two_official_files", _second_official)
_add("response_str_escaped_verifier_key", _score(0.0, '{"\\u0072ubric_items": [], "outcome_success": 0}'))
_add("response_str_verifier_key_in_a_value", _score(1.0, json.dumps({"note": "no rubric_items here"})))
_add("score_1e16", _score(1e16, "x"))
_add("score_just_below_1e16", _score(9999999999999998.0, "x"))
_add("score_tiny", _score(1e-7, "x"))
_add("times_duration_tiny", _times({"duration": 1e-7}))
_add("times_duration_just_below_1e16_years_refused", _times({"duration": 3e8}))
_add(
    "final_answer_controls",
    _set_json(answer_file, ("final_answer",), "a\x00\x1f\x7f\u2028\ud7ff\ue000\U0001f600"),
)
_add("answer_extra_key_model_config", _set_json(answer_file, ("model_config",), {"extra": "forbid"}))
_add("answer_extra_key_dunder", _set_json(answer_file, ("__class__",), "x"))
_add("answer_extra_key_property_name", _set_json(answer_file, ("total_usage",), 5))
_add("token_usage_inner_extra_dunder", _set_json(answer_file, ("token_usage", _FIRST, "__add__"), 2))
