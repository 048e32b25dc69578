"""Problems found while reading input files, reported to the user instead of raised.

Real trajectory folders are messy; a reader keeps going and records what it skipped so the
user can see which file and line was wrong.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Diagnostic(BaseModel):
    """One thing that was wrong in an input file (the file is named relative to its folder)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    file: str
    """The file it was found in: relative to the trajectory folder (e.g. "scores/gpt_eval.json"), or the
    full path of a file that lives outside one (the annotations file)."""
    line: int | None = None
    """1-based line of that file, or None when the problem concerns the whole file."""
    message: str
    """What was wrong and what the reader did about it, as a plain sentence for the user."""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.message}"


class UnreadableError(Exception):
    """A folder or file that cannot be used at all; `reason` is a plain sentence for the user."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
