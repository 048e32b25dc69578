#!/usr/bin/env python3
"""Generate `sample_runs/`: the realistic demo data the inspector opens on by default.

Two "models" (fara-7b in Fara's structured log generation, gpt-4o-som in the set-of-marks solver's)
over the same 44 real WebArena-Verified tasks of all six sites and three task types, in Fara's folder
layout (web_surfer.log, final answer, screenshots, times.json, core.log, network.har), five of them
also in the official CLI layout; `intended_verdicts.json` and a README. Everything is deterministic
(fixed seeds and base times, no wall clock, no machine time zone). Each trajectory follows a scenario
of the plan (right and wrong answers, answer-format variants, missing or wrong requests of mutate
tasks, right and wrong final pages, over-budget, aborted and crashed runs); while writing, the installed
official evaluator gives each answered trajectory its verdict, and the script fails if it is not the
one the plan intended.

Usage: `.venv/bin/python scripts/make_sample_runs.py [--out DIR]` (default: `<repo>/sample_runs`).
The code and the data it reads are in `samplegen/` next to this file (its README.md says what is where
and how to add a task).
"""

from __future__ import annotations

import sys

# Run as a script, so `scripts/` is on sys.path and `samplegen` imports as a top-level package (the
# screenshot worker processes import it by that name too).
from samplegen.generate import main

if __name__ == "__main__":
    sys.exit(main(doc=__doc__))
