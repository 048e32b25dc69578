"""A root of text-hostile trajectory folders for the app's browser test (built in tmp_path).

Two runs hold the same hostile tasks: a final-answer file whose name is a Markdown image of
example.invalid, an answer that is a live link, control characters in a folder name, a times.json
no clock can show, a task id held by two folders of one run, and screenshots declaring 170
megapixels. Every name and text here must reach the browser as text.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.harness.builders import FARA_ACTIONS, fara_folder, png_bytes, write_final_answer

IMAGE_NAME = "![p](https:example.invalid)"
"""A task id (and so a file name) that, used as Markdown, makes the browser fetch example.invalid."""
LINK_ANSWER = "[text](https://example.invalid) <img src=https://example.invalid/i.png> www.example.invalid"
"""A final answer that, used as Markdown or HTML, is a link and an image."""
CONTROL_NAME = "ctl\x1b[31mred\x07"
"""A folder and task id with a terminal escape and a bell in it."""
RUNS = ("model-a", "model-b")


def traj_folder(root: Path, model: str) -> Path:
    """The `traj/` folder of one run of the hostile root."""
    return root / "runs" / "WebSurfer-hostile" / model / "user" / "WebArenaVerified" / "0" / "traj"


def build_hostile_root(root: Path) -> Path:
    """Both runs' hostile folders under `root`; returns `root`."""
    bomb = png_bytes(10_000, 17_000)
    for model in RUNS:
        traj = traj_folder(root, model)
        named = fara_folder(traj, "image-name", final_answer=None)
        write_final_answer(named, IMAGE_NAME, LINK_ANSWER)
        times = {"start_time": 4e12, "end_time": float("nan"), "duration": 5}
        (named / "times.json").write_text(json.dumps(times))
        for screenshot in named.glob("screenshot*.png"):
            screenshot.write_bytes(bomb)
        fara_folder(traj, CONTROL_NAME, final_answer=f"{CONTROL_NAME} {LINK_ANSWER}")
        fara_folder(traj, "108", final_answer=LINK_ANSWER)
    retry = fara_folder(traj_folder(root, RUNS[0]), "108-retry", actions=FARA_ACTIONS[:2], final_answer=None)
    write_final_answer(retry, "108", "retried answer")
    return root
