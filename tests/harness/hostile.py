"""The attack corpus of issue 13, built on disk: one run folder holding a few normal trajectories
and one folder per kind of hostile input (special files, links out of the root, out-of-range
numbers and times, odd names, huge values, hostile text, crashed tasks).

`build_hostile_root(base)` makes `base/root` (the folder to open) and `base/outside` (what links
point at, which must never change); tests use it as `with hostile_root(base)`, which also removes
the 1,200-level tree afterwards (pytest's clean-up of temporary folders recurses). It is
deterministic, needs no privilege and takes about a third of a second; the mode-000 folder a
normal user cannot read is made by `lock_folder`, for tests that run as an unprivileged user.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.harness.builders import (
    FARA_ACTIONS,
    Act,
    fara_folder,
    log_lines,
    write_core_log,
    write_final_answer,
    write_log,
    write_score,
    write_screenshots,
    write_times,
)
from tests.harness.har_builders import response_text

RUN = Path("runs/WebSurfer-fara-100/fara-7b/tester/WebArena-Verified_hf/0/traj")
"""Where the hostile run's trajectories live under the root (a Fara tree)."""
NORMAL_TASKS = ("0", "1", "2")
"""Task ids of the normal trajectories: WebArena-Verified retrieve tasks without network checks."""
NORMAL_ANSWER = response_text("retrieve", data=["Luma"])
"""Their answer: a well-formed retrieve response (scored as a failure or a success, never an error)."""
DUPLICATE_TASK = NORMAL_TASKS[0]
"""The task id two hostile folders share with a normal one (issue 13, class 10)."""
BIG_RESPONSE_CHARS = 10_000_000
"""Characters of the huge agent response (class 11)."""
HUGE_PNG_SIZE = (10_000, 17_000)
"""What the huge PNG's header declares (class 11): 170 megapixels in about 20 KB."""
ANSI_TITLE = "\x1b]0;pwned title\x07"
ANSI_CLEAR = "\x1b[2J"
OSC8_LINK = "\x1b]8;;https://example.invalid\x07click\x1b]8;;\x07"
OSC8_NAME = OSC8_LINK.replace("//", "")  # a file name holds no "/"
MARKDOWN_IMAGE = "![p](https:example.invalid)"
MARKDOWN_LINK = "[t](https:example.invalid)"
FORMULAS = ('=HYPERLINK("https://example.invalid","x")', "+1", "-1", "@SUM(A1)")
DEEP_LEVELS = 1200


@dataclass(frozen=True)
class HostileRoot:
    """The corpus on disk."""

    root: Path
    """The folder to open (`base/root`)."""
    outside: Path
    """A folder beside the root that links point into; nothing may ever change in it."""
    run: Path
    """The run's `traj/` folder, holding every trajectory below except the deep one."""
    normal: tuple[Path, ...]
    """Well-formed trajectories of real tasks: they must be listed and scored whatever else is there."""
    cases: dict[str, Path]
    """One folder per hostile case, by case name."""

    @property
    def folders(self) -> tuple[Path, ...]:
        """Every trajectory folder a listing must show: the normal ones and every case."""
        return (*self.normal, *self.cases.values())


def build_hostile_root(base: Path) -> HostileRoot:
    """Make the corpus under `base` (which must exist and be empty of `root` and `outside`)."""
    root, outside = base / "root", base / "outside"
    run = root / RUN
    run.mkdir(parents=True)
    outside.mkdir()
    write_score(outside, "secret", 1.0, "a verdict from outside the root")
    normal = tuple(fara_folder(run, task, final_answer=NORMAL_ANSWER) for task in NORMAL_TASKS)
    maker = _Maker(run, outside)
    cases: dict[str, Path] = {}
    for make in (_special_files, _links, _numbers_and_times, _names, _sizes, _text, _crashed):
        cases.update(make(maker))
    cases["deep"] = _deep(root)
    return HostileRoot(root=root, outside=outside, run=run, normal=normal, cases=cases)


def lock_folder(folder: Path) -> Path:
    """Mode 000: a folder its owner's processes cannot list unless they are root."""
    folder.chmod(0)
    return folder


def huge_png(width: int = HUGE_PNG_SIZE[0], height: int = HUGE_PNG_SIZE[1]) -> bytes:
    """A valid 1-bit PNG whose header declares `width` x `height`; all-black rows compress to ~20 KB."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    compressor = zlib.compressobj(9)
    row = b"\x00" * (1 + (width + 7) // 8)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


class _Maker:
    """Makes the hostile folders of one run, each answering its own real task (so it is scored)."""

    def __init__(self, run: Path, outside: Path) -> None:
        self.run = run
        self.outside = outside
        self.task_ids = iter(range(len(NORMAL_TASKS), 40))  # retrieve tasks without network checks

    def answered(self, name: str, answer: str = NORMAL_ANSWER, task_id: str | None = None) -> Path:
        """A complete Fara folder named `name`; its answer file names `task_id` (default: the next task)."""
        folder = self.run / name
        folder.mkdir()
        write_log(folder, log_lines("fara-structured", FARA_ACTIONS))
        names = write_screenshots(folder, len(FARA_ACTIONS))
        task = task_id if task_id is not None else str(next(self.task_ids))
        write_final_answer(folder, task, answer, screenshots=names)
        write_times(folder)
        return folder


def _special_files(maker: _Maker) -> dict[str, Path]:
    """Class 1: FIFOs where a screenshot, the log, the HAR, a score file and the answer should be."""
    cases = {}
    for name, fifo in (
        ("fifo_screenshot", "screenshot1.png"),
        ("fifo_log", "web_surfer.log"),
        ("fifo_har", "network.har"),
        ("fifo_score", "scores/gpt_eval.json"),
        ("fifo_answer", "answer"),
    ):
        folder = maker.answered(name)
        target = folder / fifo if fifo != "answer" else next(folder.glob("*_final_answer.json"))
        target.parent.mkdir(exist_ok=True)
        if target.exists():
            target.unlink()
        os.mkfifo(target)
        cases[name] = folder
    return cases


def _links(maker: _Maker) -> dict[str, Path]:
    """Class 2: a `scores/` that is a symlink to a folder outside the root."""
    folder = maker.answered("linked_scores")
    (folder / "scores").symlink_to(maker.outside / "scores", target_is_directory=True)
    return {"linked_scores": folder}


def _numbers_and_times(maker: _Maker) -> dict[str, Path]:
    """Classes 3 and 5: numbers JSON readers refuse or cannot carry, times out of range."""
    huge_int = maker.answered("huge_int")
    answer = next(huge_int.glob("*_final_answer.json"))
    answer.write_text(answer.read_text()[:-1] + ', "steps": ' + "9" * 5000 + "}")
    with (huge_int / "web_surfer.log").open("a") as log:
        log.write('{"message": "x", "n": ' + "7" * 5000 + "}\n")
    overflow = maker.answered("time_overflow")
    lines = log_lines("fara-structured", FARA_ACTIONS)
    write_log(overflow, [_retime(line, "0001-01-01T00:00:00+01:00") for line in lines])
    nan = maker.answered("nan_numbers")
    (nan / "times.json").write_text('{"start_time": NaN, "end_time": Infinity, "duration": NaN}')
    write_score(nan, "judge", 0.0, "fine")
    (nan / "scores" / "judge.json").write_text('{"score": NaN, "gpt_response_text": "x"}')
    far = [Act("left_click", {"coordinate": [1e308, 1e308]}), *FARA_ACTIONS[1:]]
    write_log(nan, log_lines("fara-structured", far))
    start_4e12 = maker.answered("start_4e12")
    (start_4e12 / "times.json").write_text('{"start_time": 4e12, "end_time": 4e12, "duration": 1e999}')
    return {"huge_int": huge_int, "time_overflow": overflow, "nan_numbers": nan, "start_4e12": start_4e12}


def _retime(line: str, stamp: str) -> str:
    record = json.loads(line)
    record["timestamp"] = stamp
    return json.dumps(record)


def _names(maker: _Maker) -> dict[str, Path]:
    """Class 3: odd screenshot entries and a folder named with a digit `int()` refuses; class 10."""
    listed = maker.answered("odd_screenshots")
    for name in ("screenshot*.png", "*_final_answer.json"):
        for path in listed.glob(name):
            path.unlink()
    write_final_answer(
        listed, next(maker.task_ids).__str__(), screenshots=["a\x00b.png", "x" * 6000 + ".png"]
    )
    superscript = maker.answered("\u00b2", task_id="\u00b2")
    first = maker.answered("dup_a", task_id=DUPLICATE_TASK)
    second = maker.answered("dup_b", task_id=DUPLICATE_TASK)
    return {"odd_screenshots": listed, "superscript": superscript, "dup_a": first, "dup_b": second}


def _sizes(maker: _Maker) -> dict[str, Path]:
    """Class 11: a 10 MB agent response and a PNG declaring 170 megapixels."""
    big = maker.answered("big_response", response_text("retrieve", data=["y" * BIG_RESPONSE_CHARS]))
    png = maker.answered("huge_png")
    (png / "screenshot1.png").write_bytes(huge_png())
    return {"big_response": big, "huge_png": png}


def _text(maker: _Maker) -> dict[str, Path]:
    """Classes 6-8: terminal escapes, markdown and spreadsheet formulas in names and answers."""
    cases = {
        "ansi_answer": maker.answered("ansi_answer", f"{ANSI_TITLE}{ANSI_CLEAR}{OSC8_LINK} done"),
        "ansi_name": maker.answered(f"name{ANSI_TITLE}{ANSI_CLEAR}", task_id=f"name{ANSI_TITLE}"),
        "osc8_name": maker.answered(f"link{OSC8_NAME}"),
        "newline_name": maker.answered("forged\n0\tpass\t1.0", task_id="forged\n0\tpass"),
        "markdown_image": maker.answered("markdown_image", task_id=MARKDOWN_IMAGE),
        "markdown_link": maker.answered("markdown_link", f"see {MARKDOWN_LINK}", task_id=MARKDOWN_LINK),
    }
    for number, formula in enumerate(FORMULAS):
        cases[f"formula_{number}"] = maker.answered(f"formula_{number}", formula)
    return cases


def _crashed(maker: _Maker) -> dict[str, Path]:
    """Class 12: a crashed task, of which re-execution left only core.log."""
    folder = maker.run / str(next(maker.task_ids))
    folder.mkdir()
    write_core_log(
        folder,
        "2025-11-14 14:35:10,001 [INFO] webeval.core.abc - Starting task crashed\n"
        "2025-11-14 14:36:10,002 [ERROR] webeval.core.abc - [Execution abc] Error running task: boom\n"
        "Traceback (most recent call last):\n"
        '  File "run.py", line 1, in <module>\n'
        "playwright._impl._errors.TimeoutError: Page.goto: Timeout 30000ms exceeded.\n",
    )
    return {"crashed": folder}


def _deep(root: Path) -> Path:
    """Class 3: a trajectory at the bottom of 1,200 nested folders (a recursive walk would fail)."""
    bottom = root / "deep"
    bottom.mkdir()
    for _ in range(DEEP_LEVELS):  # one level at a time: Path.mkdir(parents=True) recurses
        bottom = bottom / "d"
        bottom.mkdir()
    return fara_folder(bottom, "deep_task", final_answer=NORMAL_ANSWER)


def snapshot_tree(folder: Path) -> dict[str, tuple[int, int, int]]:
    """(mode, size, mtime_ns) of every path under `folder`, links not followed; iterative (the deep
    tree defeats `Path.rglob`)."""
    found: dict[str, tuple[int, int, int]] = {}
    stack = [folder]
    while stack:
        current = stack.pop()
        with os.scandir(current) as entries:
            for entry in entries:
                st = entry.stat(follow_symlinks=False)
                found[os.path.relpath(entry.path, folder)] = (st.st_mode, st.st_size, st.st_mtime_ns)
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
    return found


@contextlib.contextmanager
def hostile_root(base: Path) -> Iterator[HostileRoot]:
    """`build_hostile_root(base)`, with the deep tree removed afterwards: pytest's own clean-up of
    temporary folders (`shutil.rmtree`) recurses, and would fail on it."""
    corpus = build_hostile_root(base)
    try:
        yield corpus
    finally:
        remove_tree(corpus.root / "deep")


@contextlib.contextmanager
def hostile_root_within(base: Path, seconds: int) -> Iterator[HostileRoot]:
    """`hostile_root`, failing with TimeoutError when anything the test does blocks (a FIFO opened)
    for `seconds`; the deep tree's removal afterwards is outside that budget (on a loaded machine it
    can take long, and no read of ours is in it).
    """

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("a read blocked: a FIFO was opened")

    with hostile_root(base) as corpus:
        previous = signal.signal(signal.SIGALRM, hung)
        signal.alarm(seconds)
        try:
            yield corpus
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)


def remove_tree(folder: Path) -> None:
    """Delete `folder` and everything under it without recursion (links are removed, not followed)."""
    order: list[Path] = []
    stack = [folder]
    while stack:
        current = stack.pop()
        order.append(current)
        with os.scandir(current) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                else:
                    os.unlink(entry.path)
    for current in reversed(order):
        os.rmdir(current)
