"""The benchmarks' results files: each run's figures put at the top, the earlier runs kept below."""

from __future__ import annotations

from pathlib import Path


def record(out: Path, text: str) -> None:
    """Put a run's results at the top of `out`, the earlier runs kept below."""
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():
        text = f"{text}\n\n{out.read_text(encoding='utf-8')}"
    out.write_text(text, encoding="utf-8")
    print(f"written to {out}", flush=True)
