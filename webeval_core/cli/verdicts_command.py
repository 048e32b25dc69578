"""`webeval verdicts set | confirm | exclude | withdraw | dismiss | list ROOT`: the team's decisions
on the published figures from the command line (webeval_core/review/publication.py), for teams that
script their release. The same roles as the app when `--roles FILE` is given; every write names
its author (`--as`) and its reason.
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
    from webeval_core.review import AnnotationStore, Exclusion, ExclusionProposal, PublishedTrajectory
    from webeval_core.runs import IndexQueries

_WRITES = ("set", "confirm", "exclude", "withdraw", "dismiss")


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
    """Run one `verdicts` action on ROOT."""
    from webeval_core.policy.access import acting_as
    from webeval_core.review import StoreError

    queries = root_queries(args, "verdicts")
    if queries is None:
        return 1
    store = store_for(args, queries.store.root, "verdicts")
    if store is None:
        return 1
    try:
        if args.action == "list":
            return _list(queries, store, args, out)
        with acting_as(args.author):
            return _write(queries, store, args, out)
    except (StoreError, ValueError) as exc:
        complain("verdicts", args.action, exc)
        return 1
    finally:
        store.close()


def _write(queries: IndexQueries, store: AnnotationStore, args: argparse.Namespace, out: TextIO) -> int:
    from webeval_core.review import (
        Dismissal,
        EditAction,
        Exclusion,
        ExclusionAction,
        dismiss,
        save_exclusion,
        write_edit,
    )

    if args.action == "dismiss":
        dismiss(store, Dismissal(proposal=args.proposal, reason=args.reason, author=args.author))
        say(out, f"Dismissed {args.proposal}")
        return 0
    if args.action == "exclude" or (args.action == "withdraw" and args.exclusion):
        run_key = _run_key(queries, args.run) if args.run else None
        action = ExclusionAction.EXCLUDE if args.action == "exclude" else ExclusionAction.WITHDRAW
        row = Exclusion(
            task_id=args.task,
            run=run_key,
            action=action,
            reason=args.reason,
            author=args.author,
            proposal=getattr(args, "proposal", None),
        )
        save_exclusion(store, row)
        say(out, f"{'Excluded' if action == ExclusionAction.EXCLUDE else 'Counted again'}: {row.describe()}")
        return 0
    trajectory = _trajectory(queries, store, args)
    chosen = {"set": EditAction.SET, "confirm": EditAction.CONFIRM}.get(args.action, EditAction.WITHDRAW)
    status = args.verdict if chosen == EditAction.SET else None
    score = getattr(args, "score", None)
    edit = write_edit(store, trajectory, chosen, args.reason, args.author, status=status, score=score)
    say(out, f"{edit.action.value}: task {edit.task_id} of {edit.run} (was {edit.replaced.describe()})")
    return 0


def _run_key(queries: IndexQueries, given: str) -> str:
    """The run key `given` names: itself, else the one run whose key contains it."""
    runs = sorted(queries.run_tasks())
    if given in runs:
        return given
    found = [run for run in runs if given in run]
    if len(found) != 1:
        said = "no run" if not found else f"{len(found)} runs ({', '.join(found)})"
        raise ValueError(f"--run {given!r} names {said}; give one of: {', '.join(runs)}")
    return found[0]


def _trajectory(
    queries: IndexQueries, store: AnnotationStore, args: argparse.Namespace
) -> PublishedTrajectory:
    from webeval_core.review import by_item, published_runs

    if not args.run:
        raise ValueError("an edit is of one trajectory: give --run")
    item = (_run_key(queries, args.run), args.task)
    found = by_item(published_runs(queries, None, store, [item[0]])).get(item)
    if found is None:
        raise ValueError(f"run {item[0]} has no task {item[1]!r}")
    return found


def _list(queries: IndexQueries, store: AnnotationStore, args: argparse.Namespace, out: TextIO) -> int:
    from webeval_core.review import (
        exclusions_in_force,
        published_root,
        read_edits,
        read_exclusions,
        undecided_proposals,
    )

    edits, exclusions = read_edits(store), read_exclusions(store)
    edited = [t for t in published_root(queries, None, store) if t.edit is not None]
    kept = list(exclusions_in_force(exclusions).values())
    proposals = undecided_proposals(queries, store)
    if args.json:
        document = {
            "edits": [t.edit.model_dump(mode="json") for t in edited if t.edit is not None],
            "exclusions": [e.model_dump(mode="json") for e in kept],
            "proposals": [p.model_dump(mode="json") | {"key": p.key} for p in proposals],
        }
        if args.history:
            document |= {
                "edit_history": [e.model_dump(mode="json") for e in edits],
                "exclusion_history": [e.model_dump(mode="json") for e in exclusions],
            }
        out.write(json.dumps(document, indent=2) + "\n")
        return 0
    _print_list(edited, kept, proposals, out)
    if args.history:
        say(out, "", "History (oldest first):")
        for edit in sorted(edits, key=lambda e: e.created):
            said = f"{edit.action.value} {edit.status or ''}".strip()
            when = f"{edit.created:%Y-%m-%d %H:%M} UTC"
            say(out, f"  {when}  {edit.author}: {said} {edit.run} {edit.task_id} ({edit.reason})")
        for row in sorted(exclusions, key=lambda e: e.created):
            when = f"{row.created:%Y-%m-%d %H:%M} UTC"
            say(out, f"  {when}  {row.author}: {row.action.value} {row.describe()} ({row.reason})")
    return 0


def _print_list(
    edited: list[PublishedTrajectory], kept: list[Exclusion], proposals: list[ExclusionProposal], out: TextIO
) -> None:
    say(out, f"Verdict edits in force: {len(edited)}")
    for item in edited:
        if item.edit is None:
            continue
        edit = item.edit.edit
        recheck = (
            "  TO RE-CHECK: the verdict in force is now " + item.machine.describe()
            if item.edit.recheck
            else ""
        )
        say(out, f"  {edit.run} {edit.task_id}: {edit.status} by {edit.author} ({edit.reason}){recheck}")
    say(out, f"Exclusions in force: {len(kept)}")
    for row in kept:
        say(out, f"  {row.describe()} by {row.author} ({row.reason})")
    say(out, f"Open proposals to exclude: {len(proposals)}")
    for proposal in proposals:
        where = proposal.run or "every run"
        said = f"{proposal.source.value} · {proposal.evidence}"
        say(out, f"  {proposal.key}: task {proposal.task_id} in {where} · {said}")
