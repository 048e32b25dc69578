"""How much of a cold index's time is JSON decoding, and what typed partial decoding would save.

Issue 35 asked to try decoding only the fields a summary needs (msgspec) against the cold index's
goal. This measures it where it would act, on a root of bench_index's shape (runs of 812 catalog
tasks built from the scored sample, `synthetic_roots.build_runs`), page cache warm, one process:

- the quick summary of every folder (`quick_summary`): all a worker pays a folder, reading included;
- orjson decoding the bytes that summary decodes (answer file, times.json, task_data.json,
  eval_result.json, score files and the judge text inside them, every line of web_surfer.log);
- msgspec decoding the same bytes into Structs that declare only the fields the summary reads
  (skipped with a message when msgspec is not installed: the project does not depend on it;
  `.venv/bin/python -m pip install msgspec` to run that row).

Usage: .venv/bin/python benchmarks/bench_decode.py [--trajectories 5000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import functools
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from benchmarks.results_file import add_record_option, publish
from benchmarks.synthetic_roots import REPO, build_runs, prepare_sample
from webeval_core.reading.markers import (
    ANSWER_SUFFIX,
    EVAL_RESULT_NAME,
    LOG_NAME,
    SCORES_DIR,
    TASK_DATA_NAME,
    TIMES_NAME,
)
from webeval_core.reading.taskdata import SITE_KEYS, TASK_TEXT_KEYS
from webeval_core.runs.quicksummary import quick_summary

RESULTS = REPO / "benchmarks" / "results" / "decode.txt"


class Corpus(NamedTuple):
    """The JSON texts a cold index's summaries decode, by kind."""

    folders: list[str]
    """The trajectory folders."""
    texts: dict[str, list[bytes]]
    """Each kind's texts (a log's lines one by one)."""


_KIND_OF_NAME = {TIMES_NAME: "times", TASK_DATA_NAME: "task_data", EVAL_RESULT_NAME: "eval_result"}


def collect(root: Path) -> Corpus:
    """Every trajectory folder under `root` and the texts its summary decodes."""
    folders = sorted(top for top, _, names in os.walk(root) if LOG_NAME in names)
    texts: dict[str, list[bytes]] = {"answer": [], "times": [], "task_data": [], "eval_result": []}
    texts.update({"score file": [], "judge text": [], "log line": []})
    for folder in folders:
        for entry in os.scandir(folder):
            kind = "answer" if entry.name.endswith(ANSWER_SUFFIX) else _KIND_OF_NAME.get(entry.name)
            if kind is not None:
                texts[kind].append(Path(entry.path).read_bytes())
        log = Path(folder, LOG_NAME).read_bytes()
        texts["log line"].extend(line for line in log.split(b"\n") if line)
        for score in sorted(Path(folder, SCORES_DIR).glob("*.json")):
            data = score.read_bytes()
            texts["score file"].append(data)
            judge = orjson.loads(data).get("gpt_response_text")
            if isinstance(judge, str) and judge.lstrip()[:1] in ("{", "["):
                texts["judge text"].append(judge.encode())
    return Corpus(folders, texts)


def best_seconds(run: Callable[[], object], repeats: int) -> float:
    timings = []
    for _ in range(repeats):
        started = time.process_time()
        run()
        timings.append(time.process_time() - started)
    return min(timings)


def decode_all(decode: Callable[[bytes], Any], texts: Iterable[bytes]) -> None:
    for text in texts:
        try:
            decode(text)
        except ValueError:  # a line that is not JSON (the log's text lines): both decoders refuse it
            continue


def partial_decoders() -> dict[str, Callable[[bytes], Any]] | None:
    """The msgspec decoders of only the fields the summary reads, by kind; None without msgspec."""
    try:
        import msgspec
    except ImportError:
        return None

    def struct(name: str, *fields: str) -> Callable[[bytes], Any]:
        shape = msgspec.defstruct(name, [(field, Any, None) for field in fields])
        return msgspec.json.Decoder(shape).decode  # type: ignore[no-any-return]

    generic = msgspec.json.Decoder().decode
    return {
        "answer": struct(
            "Answer", "final_answer", "is_aborted", "screenshots", "token_usage", "is_rel_paths"
        ),
        "times": struct("Times", "start_time", "end_time", "duration"),
        "task_data": struct("TaskData", *dict.fromkeys((*TASK_TEXT_KEYS, *SITE_KEYS))),
        "eval_result": generic,
        "score file": struct("Score", "gpt_response_text", "score"),
        "judge text": generic,  # what is read of it depends on the judge: all of it
        "log line": struct("Line", "action", "source", "message", "arguments"),
    }


def summarize_all(folders: list[str]) -> None:
    for folder in folders:
        quick_summary("run", folder, folder)


def measure(corpus: Corpus, repeats: int) -> list[tuple[str, float, float | None]]:
    """(kind, orjson seconds, msgspec seconds or None) per kind, then the quick summaries'."""
    partial = partial_decoders()
    rows: list[tuple[str, float, float | None]] = []
    for kind, texts in corpus.texts.items():
        whole = best_seconds(functools.partial(decode_all, orjson.loads, texts), repeats)
        typed = None
        if partial is not None:
            typed = best_seconds(functools.partial(decode_all, partial[kind], texts), repeats)
        rows.append((kind, whole, typed))
    summaries = best_seconds(functools.partial(summarize_all, corpus.folders), repeats)
    rows.append(("quick summary, whole", summaries, None))
    return rows


def report(corpus: Corpus, rows: list[tuple[str, float, float | None]]) -> str:
    per = 1e6 / len(corpus.folders)
    lines = [
        f"bench_decode: {len(corpus.folders)} trajectories, one process, page cache warm; us a folder",
        f"{'what is decoded':<22} {'texts':>8} {'orjson':>9} {'msgspec':>9}",
    ]
    for kind, whole, typed in rows[:-1]:
        typed_text = f"{typed * per:9.1f}" if typed is not None else f"{'-':>9}"
        lines.append(f"{kind:<22} {len(corpus.texts[kind]):>8} {whole * per:9.1f} {typed_text}")
    whole = sum(row[1] for row in rows[:-1])
    typed_total = [row[2] for row in rows[:-1]]
    typed_text = (
        f"{sum(t for t in typed_total if t is not None) * per:9.1f}" if None not in typed_total else ""
    )
    lines.append(f"{'all decoding':<22} {'':>8} {whole * per:9.1f} {typed_text}")
    lines.append(f"{rows[-1][0]:<22} {'':>8} {rows[-1][1] * per:9.1f}")
    if None in typed_total:
        lines.append(
            "msgspec is not installed: its column is empty (`.venv/bin/python -m pip install msgspec`)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trajectories", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs")
    add_record_option(parser)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-decode-") as work_dir:
        work = Path(work_dir)
        root = work / "root"
        build_runs(prepare_sample(args.sample, work), root, args.trajectories)
        corpus = collect(root)
        text = report(corpus, measure(corpus, args.repeats))
    publish(RESULTS, text, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
