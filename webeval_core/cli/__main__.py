"""`python -m webeval_core.cli`: the `webeval` command without its console script."""

from webeval_core.cli.entry import run

run()
