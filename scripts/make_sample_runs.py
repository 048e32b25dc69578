#!/usr/bin/env python3
"""Generate `sample_runs/`: the realistic demo data the inspector opens on by default.

What it writes (all deterministic: fixed seeds and base times, no wall clock, no machine time zone):

- `runs/<system.hash>/<model>/demo/WebArenaVerified_sample/0/traj/<task_id>/`: Fara-layout trajectory
  folders for two "models" over the same 44 real WebArena-Verified tasks (all six sites, all three
  task types). Each folder has `web_surfer.log`, `<task_id>_final_answer.json`, screenshots,
  `times.json`, `core.log` and `network.har`, shaped like the real files described in
  `/work/shared/reference/fara-trajectory-format.md`:
    * `fara-7b` logs in the Fara-agent structured generation (OtherEvent lines with
      `action: "computer_use"`, coordinates in the 1428x896 model space) and names frames
      `screenshot0..N`; four of its folders are older, text-only logs.
    * `gpt-4o-som` logs in the solver generation (WebSurferEvent lines with set-of-marks ids,
      `WebSurfer-SummarizedAction` lines, LLMCallEvent lines) and names frames `screenshot_1..N`.
- `webarena-verified-cli/<task_id>/`: five tasks in the official CLI layout
  (`agent_response.json` + `network.har`).
- `webarena-verified-config.json`: the site URLs every log, HAR and answer uses.
- `intended_verdicts.json`: for every trajectory, the scenario it was built for and the verdict the
  official evaluator gives it (checked while generating, see below).
- `README.md`: what is where.

Every trajectory follows a PLAN row (task id -> scenario per model). Scenarios cover right and wrong
answers, the answer-format variants agents produce (fences, prose, the published schema's
`action`/`results` naming), missing or wrong network requests for mutate tasks, right and wrong final
navigations, over-budget, aborted and crashed runs. While writing, the script asks the installed
official evaluator (`webarena_verified`) for the verdict of each answered trajectory and fails if it is
not the one the plan intended, so the sample really has the mix it claims.

Usage: `.venv/bin/python scripts/make_sample_runs.py [--out DIR]` (default: `<repo>/sample_runs`).
The code is in the `samplegen` package next to this file (its `__init__.py` lists the modules).
"""

from __future__ import annotations

import sys

# Run as a script, so `scripts/` is on sys.path and `samplegen` imports as a top-level package (the
# screenshot worker processes import it by that name too).
from samplegen.generate import main

if __name__ == "__main__":
    sys.exit(main(doc=__doc__))
