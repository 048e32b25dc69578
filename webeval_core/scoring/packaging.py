"""Before submitting: what the official packager would leave out of a run's output folder.

`check_submission` runs `create-submission-pkg`'s own code on the folder (into a temporary
place); a folder or tar that already is a package is read from its summary.json instead.
"""

from __future__ import annotations

from pathlib import Path

from webeval_core.reading.submission import Submission, is_submission, read_submission
from webeval_core.reading.task_catalog import TaskCatalog, load_catalog
from webeval_core.scoring import official
from webeval_core.support.diagnostics import UnreadableError

__all__ = ["check_submission"]


def check_submission(path: Path, catalog: TaskCatalog | Path | str | None = None) -> Submission:
    """The packager's verdict on a run's output folder (or a package's own summary).

    Raises:
        UnreadableError: when `path` is neither a folder nor a package.
    """
    path = Path(path)
    if is_submission(path):
        return read_submission(path)
    if not path.is_dir():
        raise UnreadableError(path, "is neither a run's output folder nor a submission package")
    tasks = catalog if isinstance(catalog, TaskCatalog) else load_catalog(catalog)
    return official.package_dry_run(path, tasks)
