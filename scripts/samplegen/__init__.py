"""The generator of `sample_runs/`, run by `scripts/make_sample_runs.py` (its docstring says what it writes).

Modules, from the bottom up: sites -> web -> painter -> recipes/ (one module per site) and plan ->
trajectory -> har and logs -> writer; checker asks the official evaluator; generate writes the whole tree.
"""
