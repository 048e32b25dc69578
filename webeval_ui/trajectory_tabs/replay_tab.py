"""Replay tab: step through the screenshots with the action drawn on them.

The screenshot takes the content's full width (a zoom shows the region around the action
larger); the page after the action stands beside it when both fit at a readable width, else
below it. Then the agent's thought, its arguments, the observation and the step's requests.
Steps a judge's failure points name are marked (⚑: a bar of them above the screenshot, the
filmstrip's buttons, and what the judge says above the step's details).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import streamlit as st

from webeval_core.presentation import (
    Frame,
    StepFlag,
    arguments_table,
    flagged_steps,
    frame_image,
    frames_of,
    moment,
    prefetch_frame,
    prefetch_thumbnail,
    step_marks,
    step_point,
    thumbnails,
    zoom_view,
)
from webeval_core.reading import Step, Trajectory, image_complete, task_progress, verifier_outputs
from webeval_core.runs import fingerprint
from webeval_core.support import UnreadableError
from webeval_ui.harness_panel import harness_step
from webeval_ui.roots import inside_root
from webeval_ui.state import Key, film_key, flag_key
from webeval_ui.trajectory_tabs import navigation
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.network_tab import events
from webeval_ui.untrusted import contained, inert
from webeval_ui.widgets import grid, lazy_expander

Flags = dict[int, tuple[StepFlag, ...]]

FILM_SIDE = 4  # thumbnails each side of the current step: 100-step trajectories stay fast
THUMB_WIDTH = 176
ZOOMS = {"fit": 1.0, "2×": 2.0, "3×": 3.0}
FOLLOW_EVERY_S = 2.0  # a running trajectory's folder is looked at again this often
READABLE_WIDTH = 640  # px: a 1440 px frame at 0.44 scale, the smallest at which its text still reads


@st.cache_data(show_spinner=False, max_entries=32)
def _flags(folder: str, fingerprint: str, _trajectory: Trajectory) -> Flags:
    """The steps the judges' failure points name, per folder state (the replay reruns on every step)."""
    return flagged_steps(verifier_outputs(_trajectory.scores)[0])


def _flagged_bar(flags: Flags, current: int) -> None:
    """A button per step a judge flagged: the failures are one click away from any step."""
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption("Flagged by a judge:", width="content")
        for step, marks in flags.items():
            st.button(
                f"⚑ {step}",
                key=flag_key(step),
                on_click=navigation.go,
                args=(step,),
                type="primary" if step == current else "tertiary",
                help=inert("; ".join(f"{m.judge}: {m.code}" for m in marks)),
            )


def _step_flags(marks: tuple[StepFlag, ...]) -> None:
    lines = [f"⚑ {m.judge}: {m.code}" + (f" — {m.what_happened}" if m.what_happened else "") for m in marks]
    st.warning(inert("\n\n".join(lines)))


def _frame_path(folder: Path, name: str | None) -> Path | None:
    """A screenshot of the trajectory, only when it lies inside the browsed root."""
    return inside_root(folder / name) if name else None


def _slid() -> None:
    navigation.go(st.session_state[Key.STEP_SLIDER])


def _prefetch(folder: Path, frames: list[Frame], position: int) -> None:
    """Start drawing what the next step shows on the overlay workers.

    Its frame and the thumbnail entering the filmstrip are drawn while the user looks at this one.
    """
    if position + 1 >= len(frames):
        return
    upcoming = frames[position + 1]
    path = _frame_path(folder, upcoming.screenshot)
    if path is not None:
        with contextlib.suppress(UnreadableError):
            prefetch_frame(path, **step_marks(upcoming.step))
    entering = _film_window(frames, position + 1)[-1]
    path = _frame_path(folder, entering.screenshot)
    if path is not None:
        prefetch_thumbnail(path, THUMB_WIDTH, step_point(entering.step))


def show_frame(
    folder: Path, name: str | None, step: Step | None, caption: str, zoom: float = 1.0, marked: bool = True
) -> None:
    """Screenshot `name` of `folder` with the step's action drawn on it, or why it cannot be shown.

    `zoom` above 1: the region around the action, enlarged; `marked=False`: the action not drawn.
    """
    path = _frame_path(folder, name)
    if path is None:
        st.info(
            "No screenshot for this step."
            if not name
            else f"Screenshot {inert(name)} is not inside the root."
        )
        return
    marks = step_marks(step)
    try:
        if zoom > 1:
            image = zoom_view(path, **marks, zoom=zoom, marked=marked)
        else:
            image = frame_image(path, **(marks if marked else {}))
    except UnreadableError as exc:
        st.warning(inert(f"{name}: {exc.reason}"))
        return
    # JPEG (frame_image's default): encoding a full frame as PNG takes most of a step's budget.
    st.image(image, width="stretch", output_format="JPEG")
    st.caption(inert(caption))


def _after_frame(trajectory: Trajectory, name: str | None) -> str | None:
    """The screenshot taken after the one the action was drawn on (the page the action led to)."""
    if name not in trajectory.screenshots:
        return None
    position = trajectory.screenshots.index(name)
    return trajectory.screenshots[position + 1] if position + 1 < len(trajectory.screenshots) else None


def _step_details(trajectory: Trajectory, frame: Frame, total: int) -> None:
    step = frame.step
    if step is None:
        st.markdown(f"**Screenshot {frame.number} of {total}**")
        st.caption("The log has no steps; screenshots are shown in order without actions.")
        return
    st.markdown(f"**Step {step.index} of {total}** · {inert(step.action)}")
    if step.time_utc is not None:
        first = trajectory.steps[0].time_utc
        since = f" (+{(step.time_utc - first).total_seconds():.1f} s)" if first else ""
        st.caption(f"{moment(step.time_utc)}{since}")
    # Plain text, not st.code: the first code block of a page loads and runs the browser's syntax
    # highlighter, about half a second of a page load here.
    if step.url:
        st.text(step.url)
    st.markdown("**Thought**")
    st.text(step.thought or "(none logged)")
    if step.thought_from_arguments:
        st.caption("No thought logged: this is the reasoning kept in the action's arguments.")
    st.markdown("**Arguments**")
    grid(arguments_table(step.arguments), hide_index=True, width="stretch")
    if step.point is not None:
        scaling = f" ({trajectory.coordinate_scaling})" if trajectory.coordinate_scaling else ""
        st.caption(f"Drawn at ({step.point.x:.0f}, {step.point.y:.0f}) in screenshot pixels{scaling}")
    st.markdown("**Observation**")
    st.text(step.observation or "(none logged)")
    if step.log_line is not None:
        st.caption(f"web_surfer.log line {step.log_line}")
    harness_step(trajectory, step.index)


def _step_requests(context: TabContext, index: int) -> None:
    requests = events(context)
    if isinstance(requests, str) or "step" not in requests.columns:
        return  # the Network tab says why, or places requests by time: steps have none
    during = requests[requests["step"] == index]
    # It stays open from step to step once opened.
    requests_box = lazy_expander(f"Requests during this step ({len(during)})", key=Key.STEP_REQUESTS)
    if requests_box is not None:
        with requests_box:
            grid(during, hide_index=True, width="stretch")


def _film_window(frames: list[Frame], position: int) -> list[Frame]:
    start = max(0, min(position - FILM_SIDE, len(frames) - (2 * FILM_SIDE + 1)))
    return frames[start : start + 2 * FILM_SIDE + 1]


def _filmstrip(folder: Path, frames: list[Frame], position: int, flags: Flags) -> None:
    window = _film_window(frames, position)
    paths = [_frame_path(folder, frame.screenshot) for frame in window]
    drawn = iter(
        thumbnails([(p, step_point(f.step)) for p, f in zip(paths, window, strict=True) if p], THUMB_WIDTH)
    )
    for column, frame, path in zip(st.columns(2 * FILM_SIDE + 1), window, paths, strict=False):
        with column:
            image = next(drawn) if path is not None else None
            if isinstance(image, bytes):
                st.image(image, width="stretch", output_format="PNG")
            else:
                st.caption("unreadable" if path is not None else "no screenshot")
            current = frame is frames[position]
            st.button(
                f"⚑ {frame.number}"
                if frame.number in flags and frame.step is not None
                else str(frame.number),
                key=film_key(frame.number),
                on_click=navigation.go,
                args=(frame.number,),
                type="primary" if current else "secondary",
                width="stretch",
                help=inert(frame.step.action) if frame.step else None,
            )


def _screens(context: TabContext, frame: Frame) -> None:
    """The step's screenshot at the content's width, or before and after side by side; zoomable."""
    controls = st.columns([3, 2], vertical_alignment="center")
    after = controls[0].toggle("Also show the page after this action", key=Key.SHOW_AFTER)
    zoom_name = controls[1].segmented_control(
        "Zoom on the action",
        list(ZOOMS),
        default="fit",
        key=Key.ZOOM,
        help="Enlarge the region around where the action aimed (the full frame: the image's own"
        " fullscreen button).",
    )
    zoom = ZOOMS.get(zoom_name or "fit", 1.0)
    name = frame.screenshot or "no screenshot"
    shown = f"{name} ({zoom_name} around the action)" if zoom > 1 else name
    if not (after and frame.step is not None):
        show_frame(context.folder, frame.screenshot, frame.step, shown, zoom)
        return
    # Side by side where the content has room for both at a readable width, else one above the other.
    with st.container(horizontal=True, wrap=True, gap="small"):
        before_col, after_col = st.container(width=READABLE_WIDTH), st.container(width=READABLE_WIDTH)
    with before_col:
        show_frame(context.folder, frame.screenshot, frame.step, f"{shown}: the action", zoom)
    with after_col:
        following = _after_frame(context.trajectory, frame.screenshot)
        caption = f"{following or 'no later screenshot'}: after it"
        show_frame(context.folder, following, frame.step, caption, zoom, marked=False)


def render(context: TabContext) -> None:
    """The replay of the context's trajectory: at the URL's step, or following its newest step
    while the task runs.
    """
    if context.trajectory.outcome == "unfinished":
        _following(context)
    else:
        _replay(context)


@st.fragment(run_every=FOLLOW_EVERY_S)
@contained("The replay")
def _following(context: TabContext) -> None:
    """A running trajectory, read again when its folder changed; follow mode (on until the user
    steps elsewhere) shows the newest step whose screenshot is whole.
    """
    now_print = fingerprint(context.folder)
    if now_print != context.fingerprint:
        context = context.at(now_print)
    progress = task_progress(context.folder)
    if progress.restarted_at is not None:
        st.info(
            f"Restarted at {progress.restarted_at:%H:%M} (the run's local time): following the new attempt."
        )
    if context.trajectory.outcome != "unfinished":
        st.success("The task finished: reload the page for its verdicts.")
    frames = frames_of(context.trajectory)
    if frames:
        _follow_mode(context.folder_text, _newest_whole(context.folder, frames))
    _replay_body(context)


def _newest_whole(folder: Path, frames: list[Frame]) -> int:
    """The newest step whose screenshot is written whole (one being written is skipped until it is)."""
    for frame in reversed(frames):
        path = _frame_path(folder, frame.screenshot)
        if path is None or image_complete(path):
            return frame.number
    return frames[0].number


def _follow_mode(folder: str, newest: int) -> None:
    """The follow switch: on for a trajectory newly shown, off once the user steps elsewhere."""
    followed = st.session_state.get(Key.FOLLOWED)
    if followed is None or followed[0] != folder:
        st.session_state[Key.FOLLOW] = True
    elif followed[1] is not None and st.query_params.get(Key.STEP) not in (None, str(followed[1])):
        st.session_state[Key.FOLLOW] = False  # the user stepped back (or elsewhere)
    st.toggle("Follow the newest step", key=Key.FOLLOW, help="Shows each new step as the agent takes it.")
    if st.session_state[Key.FOLLOW]:
        navigation.go(newest)
    st.session_state[Key.FOLLOWED] = (folder, newest if st.session_state[Key.FOLLOW] else None)


@st.fragment
@contained("The replay")  # inside the fragment: its own reruns are contained too
def _replay(context: TabContext) -> None:
    """The replay at the URL's step. Only this part reruns when stepping; the frame after this
    one is rendered ahead meanwhile.
    """
    _replay_body(context)


def _replay_body(context: TabContext) -> None:
    trajectory, folder = context.trajectory, context.folder
    frames = frames_of(trajectory)
    if not frames:
        st.info(
            "Nothing to replay: this trajectory has no logged steps and no screenshots"
            + (
                " (the WebArena-Verified layout keeps only the answer and the HAR)."
                if trajectory.layout == "webarena-verified"
                else "."
            )
        )
        return
    indices = [f.number for f in frames]
    position = navigation.position(indices)
    frame = frames[position]
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button(
            "◀ Previous",
            key=Key.PREVIOUS,
            on_click=navigation.go,
            args=(indices[max(0, position - 1)],),
            disabled=position == 0,
            shortcut="Left",
        )
        st.button(
            "Next ▶",
            key=Key.NEXT,
            on_click=navigation.go,
            args=(indices[min(len(indices) - 1, position + 1)],),
            disabled=position == len(indices) - 1,
            shortcut="Right",
        )
        if len(indices) > 1:
            st.session_state[Key.STEP_SLIDER] = frame.number
            st.select_slider(
                "Step", indices, key=Key.STEP_SLIDER, on_change=_slid, label_visibility="collapsed"
            )
    # Which steps a judge flagged is a verdict: a trajectory seen without its verdicts has no score
    # file to flag one (and the cache, keyed by the folder, is not asked for another viewer's).
    flags = _flags(context.folder_text, context.fingerprint, trajectory) if trajectory.scores else {}
    flags = {step: marks for step, marks in flags.items() if step in indices and frames[0].step is not None}
    if flags:
        _flagged_bar(flags, frame.number)
    _screens(context, frame)
    detail_col, requests_col = st.columns([3, 2])
    with detail_col:
        if frame.number in flags:
            _step_flags(flags[frame.number])
        _step_details(trajectory, frame, len(frames))
    with requests_col:
        _step_requests(context, frame.number)
    _filmstrip(folder, frames, position, flags)
    _prefetch(folder, frames, position)  # last: this step's elements are already on their way
