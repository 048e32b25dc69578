"""What the cube-harness glance pays for the final answer: its last act file read as far as the
actions, against the glance without it (status.json and steps/'s names) and against decoding that
act file whole.

    .venv/bin/python benchmarks/bench_cube_glance.py [--episodes 200] [--steps 10] [--repeats 5]
        [--band 50]

The root is `--episodes` finished cube-harness episodes of `--steps` actions each and a
`submit_response` at the end, written by `tests/harness/cube_writer.py` as cube-harness's
FileStorage writes them; the final act's LLM call shows the model the page (a 1280x720 PNG of a
screenshot's weight, `--band` rows of noise, which compresses as little as a real page's PNG: 50
rows, ~0.25 MB as a data URL; 400, ~2 MB, a prompt of several pages), as genny's prompts do, so
the act file is as heavy as a real one (the earlier acts carry no image: the glance never opens
them). One process, the readers imported and every file read once
before the clock (a warm page cache: the decompression and parsing are timed, not the disk):
- the floor: list each episode folder and steps/, read and decode status.json;
- the glance without the answer (`glance_cube(answer=False)`, what `ended` asks);
- the glance (`glance_trajectory`): the same and the last act file read up to its actions;
- the alternative not taken: the glance without the answer, plus the last act file decoded whole
  (`decode_step`), as the load reads it.
The figures alternate `--repeats` times and the best of each is kept (a shared machine drifts).
Results at the top of --out (default benchmarks/results/cube_glance.txt).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.results_file import add_record_option, publish  # noqa: E402


def _page(band: int, size: tuple[int, int] = (1280, 720)) -> bytes:
    """A PNG of a screenshot's weight: noise in a band of `band` rows (50: ~190 KB), flat elsewhere."""
    from PIL import Image

    picture = Image.new("RGB", size, (245, 245, 245))
    noise = Image.frombytes("RGB", (size[0], band), random.Random(0).randbytes(size[0] * band * 3))
    picture.paste(noise, (0, 100))
    buffer = io.BytesIO()
    picture.save(buffer, "PNG")
    return buffer.getvalue()


def build_root(root: Path, episodes: int, steps: int, band: int = 50) -> list[Path]:
    """`episodes` finished episodes of `steps` clicks and a submit_response whose prompt shows a page."""
    from tests.harness.cube_writer import CubeStep, submit, write_episode

    page = _page(band)
    clicks = [CubeStep("click", {"bid": f"a{n}"}, thoughts=f"step {n}", image=False) for n in range(steps)]
    answer = submit({"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": [6]}, prompt_image=page)
    return [
        write_episode(root / f"exp_{n % 10}", f"webarena_verified.{n % 812}", [*clicks, answer], episode=n)
        for n in range(episodes)
    ]


def _floor(folders: list[Path]) -> None:
    for folder in folders:
        with os.scandir(folder) as entries:
            _ = [e.name for e in entries]
        with os.scandir(folder / "steps") as entries:
            _ = [e.name for e in entries]
        json.loads((folder / "status.json").read_bytes())


def _figures() -> dict[str, Callable[[list[Path]], None]]:
    from webeval_core.reading.cube_reader import decode_step, glance_cube
    from webeval_core.reading.folderreader import read_guarded
    from webeval_core.reading.glance import glance_trajectory

    def unanswered(folders: list[Path]) -> None:
        for folder in folders:
            read_guarded(folder, lambda reader: glance_cube(reader, answer=False))

    def glance(folders: list[Path]) -> None:
        for folder in folders:
            assert glance_trajectory(folder).final_answer_text is not None

    def whole(folders: list[Path]) -> None:
        for folder in folders:
            read_guarded(folder, lambda reader: glance_cube(reader, answer=False))
            last = max((folder / "steps").glob("*_act.msgpack.zst"))
            decode_step(last.read_bytes())

    return {"floor": _floor, "unanswered": unanswered, "glance": glance, "whole": whole}


_LABELS = {
    "floor": "floor: list the folder and steps/, decode status.json",
    "unanswered": "glance without the answer (what `ended` asks)",
    "glance": "glance: the last act file read as far as its actions",
    "whole": "glance without the answer + the last act decoded whole",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--band", type=int, default=50, help="rows of noise in the prompt's page")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "cube_glance.txt")
    add_record_option(parser)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        folders = build_root(Path(scratch), args.episodes, args.steps, args.band)
        last = max((folders[0] / "steps").glob("*_act.msgpack.zst"))
        compressed = last.stat().st_size
        from webeval_core.reading.cube_reader import decode_step

        decompressed = len(json.dumps(decode_step(last.read_bytes())))
        figures = _figures()
        for run in figures.values():  # warm: imports, page cache
            run(folders)
        best: dict[str, float] = {}
        for _ in range(args.repeats):
            for name, run in figures.items():
                start = time.perf_counter()
                run(folders)
                best[name] = min(best.get(name, float("inf")), time.perf_counter() - start)
    head = (
        f"cube-harness glance, {args.episodes} finished episodes of {args.steps} steps and a "
        f"submit_response (its act file {compressed / 1e3:.0f} KB, {decompressed / 1e3:.0f} KB as JSON), "
        f"best of {args.repeats}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    lines = [head]
    for name, label in _LABELS.items():
        each = best[name] / args.episodes * 1e3
        lines.append(f"  {label:56s} {best[name]:.3f} s ({each:.3f} ms an episode)")
    answer = (best["glance"] - best["unanswered"]) / args.episodes * 1e3
    whole = (best["whole"] - best["unanswered"]) / args.episodes * 1e3
    lines.append(
        f"  the answer costs the glance {answer:.3f} ms an episode; the act decoded whole, {whole:.3f} ms"
    )
    publish(args.out, "\n".join(lines), args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
