"""What every command prints with: JSON, terminal lines, complaints, a progress bar, sizes, tables."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from webeval_core.support import strict_json, terminal_text

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]  # what each command adds itself to


def print_json(payload: object, out: TextIO) -> None:
    """One JSON document, indented, NaN written as null."""
    out.write(strict_json(payload, indent=2) + "\n")


def say(out: TextIO, *lines: str) -> None:
    """Write lines for a person's terminal: whatever came from input has its controls escaped."""
    out.writelines(terminal_text(line) + "\n" for line in lines)


def complain(command: str, subject: object, problem: object) -> None:
    """One line on stderr: `webeval COMMAND: SUBJECT: PROBLEM`."""
    say(sys.stderr, f"webeval {command}: {subject}: {problem}")


def shorten(text: str | None, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis."""
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def size(n_bytes: int) -> str:
    """A byte count as a person reads it (KB below a megabyte, else MB)."""
    return f"{n_bytes / 1e6:.1f} MB" if n_bytes >= 1e6 else f"{n_bytes / 1e3:.0f} KB"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    """Rows as aligned text: each column as wide as its widest cell (the last one is not padded).

    Args:
        header: The column names.
        rows: The cells, as text.
        right: The columns aligned to the right (numbers).
    """
    widths = [max(len(cells[i]) for cells in (header, *rows)) for i in range(len(header))]
    last = len(header) - 1

    def line(cells: Sequence[str]) -> str:
        padded = [
            cell if i == last else cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(cells)
        ]
        return "  ".join(padded).rstrip()

    return [line(header), *(line(cells) for cells in rows)]


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str, stream: TextIO = sys.stderr) -> None:
        self.label = label
        """What is being done ("Reading", "Scoring")."""
        self.stream = stream
        """Where the bar is drawn."""
        self.enabled = stream.isatty()
        """Whether to draw at all (a log file or a pipe gets no bar)."""

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total == 0:
            return
        width = 30
        filled = int(width * done / total)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()
