"""`webeval verdicts set | confirm | exclude | withdraw | dismiss | list ROOT`: the team's decisions
on the published figures from the command line (webeval_core/review/publication.py), for teams that
script their release: the arguments here, what each action does in
webeval_core/review/verdict_commands.py. The same roles as the app when `--roles FILE` is given;
every write names its author (`--as`) and its reason.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import complain, say
from webeval_core.cli._roots import root_queries
from webeval_core.cli._store import add_store_arguments, store_for

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers


def add_parser(sub: Subparsers) -> None:
    """The `verdicts` group and its actions."""
    verdicts = sub.add_parser(
        "verdicts",
        help="verdict edits and exclusions: what the published figures apply",
        description="Set, confirm or withdraw a person's verdict in place of a judge's; exclude a"
        " trajectory or a task in every run; list them with the data's open proposals.",
    )
    actions = verdicts.add_subparsers(dest="action", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("root")
    add_store_arguments(common, "the review store")
    common.add_argument(
        "--roles", metavar="FILE", help="the roles file of the team (as `webeval app --roles`)"
    )
    write = argparse.ArgumentParser(add_help=False, parents=[common])
    write.add_argument(
        "--as", dest="author", required=True, help="who decides (the name or identity recorded)"
    )
    write.add_argument("--reason", required=True, help="why, in a sentence (recorded)")
    write.add_argument("--task", required=True, help="the task id")
    one = actions.add_parser("set", parents=[write], help="publish this verdict instead of the judge's")
    one.add_argument("--run", required=True, help="the run key (or a part of it naming one run)")
    one.add_argument("--verdict", required=True, choices=["success", "failure"])
    one.add_argument(
        "--score", type=float, help="the published score (default: 1 for success, 0 for failure)"
    )
    confirm = actions.add_parser("confirm", parents=[write], help="keep an edit to re-check in force")
    confirm.add_argument("--run", required=True, help="the run key (or a part of it naming one run)")
    exclude = actions.add_parser("exclude", parents=[write], help="leave a trajectory, or a task, out")
    exclude.add_argument("--run", help="the run (default: the task in every run)")
    exclude.add_argument("--proposal", help="the key of the proposal this accepts (see `list`)")
    withdraw = actions.add_parser("withdraw", parents=[write], help="withdraw an edit, or an exclusion")
    withdraw.add_argument("--run", help="the run (an edit needs one; an exclusion without: every run)")
    withdraw.add_argument("--exclusion", action="store_true", help="withdraw the exclusion, not the edit")
    dismiss = actions.add_parser("dismiss", parents=[common], help="dismiss a proposal to exclude")
    dismiss.add_argument("proposal", help="the proposal's key (see `list`)")
    dismiss.add_argument("--as", dest="author", required=True)
    dismiss.add_argument("--reason", required=True)
    listing = actions.add_parser("list", parents=[common], help="edits, exclusions and open proposals")
    listing.add_argument("--history", action="store_true", help="every row written, not only those in force")
    listing.add_argument("--json", action="store_true", help="one JSON object")
    verdicts.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run one `verdicts` action on ROOT (review/verdict_commands.py does it)."""
    from webeval_core.policy import acting_as
    from webeval_core.review import StoreError, VerdictRequest, apply_request, listing_document, listing_lines

    queries = root_queries(args, "verdicts")
    if queries is None:
        return 1
    store = store_for(args, queries.store.root, "verdicts")
    if store is None:
        return 1
    try:
        if args.action == "list" and args.json:
            out.write(json.dumps(listing_document(queries, store, history=args.history), indent=2) + "\n")
        elif args.action == "list":
            say(out, *listing_lines(queries, store, history=args.history))
        else:
            request = VerdictRequest.model_validate(
                {name: value for name, value in vars(args).items() if name in VerdictRequest.model_fields}
            )
            with acting_as(args.author):
                say(out, apply_request(queries, store, request))
    except (StoreError, ValueError) as exc:
        complain("verdicts", args.action, exc)
        return 1
    finally:
        store.close()
    return 0
