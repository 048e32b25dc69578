"""One wording of counts, rate changes and file names for every view."""

from __future__ import annotations

from webeval_core.presentation.wording import PointsChange, download_name, plural, points_change


def test_counts_agree_with_their_noun() -> None:
    assert plural(1, "trajectory", "trajectories") == "1 trajectory"
    assert plural(0, "trajectory", "trajectories") == "0 trajectories"
    assert plural(2, "file") == "2 files"


def test_a_change_that_rounds_to_nothing_is_no_change_without_an_arrow() -> None:
    assert points_change(0.384, 0.384) == PointsChange("no change", moved=False)
    assert points_change(0.384, 0.3841) == PointsChange("no change", moved=False)
    assert points_change(0.30, 0.312) == PointsChange("+1.2 pts", moved=True)
    assert points_change(0.30, 0.296) == PointsChange("-0.4 pts", moved=True)
    assert points_change(None, 0.3) is None


def test_a_downloaded_trajectory_is_named_by_its_run_and_task() -> None:
    a = download_name("runs/fara-7b/demo/0", "107")
    b = download_name("runs/fara-7b/demo/1", "107")
    assert a == "trajectory-runs-fara-7b-demo-0-107.html" and a != b
    assert download_name("../..", "../x") == "trajectory-run-x.html"  # nothing that leaves a folder


def test_every_time_is_written_in_utc_with_its_zone() -> None:
    from datetime import UTC, datetime, timedelta, timezone

    from webeval_core.presentation.wording import UNKNOWN, moment

    aware = datetime(2025, 11, 10, 13, 15, 12, tzinfo=timezone(timedelta(hours=-8)))
    assert moment(aware) == "2025-11-10 21:15:12 UTC"
    naive = datetime(2025, 11, 10, 13, 15, 12, 345000)
    assert moment(naive, -8 * 3600) == "2025-11-10 21:15:12 UTC"  # the run's offset: the same moment
    assert moment(naive, -8 * 3600, precise=True) == "2025-11-10 21:15:12.345 UTC"
    assert moment(naive) == "2025-11-10 13:15:12 (local time, zone unknown)"
    assert moment(datetime(2025, 1, 1, tzinfo=UTC)) == "2025-01-01 00:00:00 UTC"
    assert moment(None) == UNKNOWN


def test_a_file_size_in_kilobytes_below_a_megabyte() -> None:
    from webeval_core.presentation.wording import file_size

    assert [file_size(n) for n in (840_000, 999_999, 1_000_000, 2_430_000)] == [
        "840 KB",
        "1000 KB",
        "1.0 MB",
        "2.4 MB",
    ]
