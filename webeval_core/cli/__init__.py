"""`webeval`: the command-line face of webeval_core, a module per command.

show, ls, score, index, export, app, check, annotations, verdicts, report, query
          each `add_parser(sub)` and `run(args, out)`
_output   printing shared by every command (JSON, terminal lines, tables, progress)
_roots    the folder a command reads: a path, a submission package, a store URL's mirror
entry     the parser built from the commands, `main`, and `run` (the `webeval` console script)

May import every layer; nothing imports it.
"""

from webeval_core.cli.entry import build_parser, main, run

__all__ = ["build_parser", "main", "run"]
