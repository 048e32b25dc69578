"""THE way a process opens the annotation store: where (the location given, else
`WEBEVAL_ANNOTATIONS`, else the user's SQLite file), under which policy, and with what earlier
versions left there carried over (legacy: their JSON-lines annotations, the old run keys).
"""

from __future__ import annotations

import os
from pathlib import Path

from webeval_core.policy.access import AccessPolicy
from webeval_core.review.annotation_db import ENV_VARIABLE, AnnotationStore, default_location, open_store
from webeval_core.review.legacy import carry_over_run_keys, legacy_file, read_legacy
from webeval_core.support.diagnostics import Diagnostic


def open_annotations(
    location: str | None = None, root: Path | None = None, policy: AccessPolicy | None = None
) -> tuple[AnnotationStore, list[Diagnostic]]:
    """The store (see `annotation_db.open_store`; `policy`: the process's when None), with old JSON-lines
    annotations imported into it.

    A location naming a `.jsonl` file (an earlier `WEBEVAL_ANNOTATIONS`) opens the SQLite file
    beside it, named alike, and imports the old file; the root's old default file is imported too.
    """
    chosen = location or os.environ.get(ENV_VARIABLE) or default_location()
    olds: list[Path] = []
    if chosen.endswith(".jsonl"):
        olds.append(Path(chosen))
        chosen = str(Path(chosen).with_suffix(".sqlite"))
    if root is not None:
        olds.append(legacy_file(root))
    store = open_store(chosen, policy)
    problems: list[Diagnostic] = []
    if store.read_only:  # importing and carrying over are writes: a read-only store is read as it is
        return store, problems
    upkeep = store.maintenance()  # the core's own writes: no user's role applies
    for old in olds:
        annotations, found = read_legacy(old)
        upkeep.add_many(annotations)
        problems += found
    if root is not None:
        carry_over_run_keys(upkeep, root)
    return store, problems
