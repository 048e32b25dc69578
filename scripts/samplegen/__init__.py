"""The generator of `sample_runs/`, run by `scripts/make_sample_runs.py`: data in `data/` read by one program.

Modules, from the bottom up: sites -> web -> painter and plan (reads data/) -> trajectory -> har and logs ->
writer; checker asks the official evaluator; generate writes the whole tree. README.md says more.
"""
