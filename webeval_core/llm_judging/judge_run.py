"""Judging trajectories: one (written, or only shown: the "what if"), or many at once.

Many are judged on `concurrency` threads, each folder read when a thread takes it (a run's
screenshots are never all in memory). A folder this judge already judged is skipped, so a run
stopped by Ctrl-C or a kill goes on where it stopped; each verdict is written atomically the moment
it is decided. A judge error (a timeout, a refusal, a reply with no verdict) is that trajectory's
outcome, with its reason: nothing is written for it and the run goes on. A cancel (the app's
button, Ctrl-C) lets the requests in flight finish and starts no other.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.llm_judging.chat_transport import ChatReply, ChatRequest, ChatTransport, JudgeCallError
from webeval_core.llm_judging.endpoints import EndpointProfile
from webeval_core.llm_judging.judge_files import (
    FileOwner,
    JudgeCost,
    file_owner,
    judge_file_bytes,
    judge_file_path,
    write_judge_file,
)
from webeval_core.llm_judging.judge_material import JudgeMaterial, load_material
from webeval_core.llm_judging.judge_verdict import Judge, JudgeDecision, judge_id, judge_identity
from webeval_core.scoring.score_writer import ScoreWriteError
from webeval_core.support.diagnostics import UnreadableError


class JudgeStatus(StrEnum):
    """How judging one trajectory ended."""

    SUCCESS = "success"
    """Judged: the task was done."""
    FAILURE = "failure"
    """Judged: it was not."""
    ERROR = "error"
    """No verdict (the reason says why); nothing written."""
    JUDGED_BEFORE = "judged before"
    """This judge's file was there already: left as it is, nothing asked."""


class JudgeOutcome(BaseModel):
    """One trajectory judged (or not), and what it took."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    folder: Path
    """The trajectory folder."""
    task_id: str
    """Its task id (the folder's name when it could not be read)."""
    judge_id: str
    """The judge, as its score files are named."""
    status: JudgeStatus
    """How it ended."""
    reason: str | None = None
    """Why there is no verdict (an error)."""
    decision: JudgeDecision | None = None
    """The verdict, when one was decided now."""
    cost: JudgeCost = JudgeCost()
    """Requests, tokens and time it took."""
    written: Path | None = None
    """The score file written; None when nothing was (an error, a "what if", judged before)."""

    @property
    def score(self) -> float | None:
        """The verdict as a score (1 or 0); None without one decided now."""
        return None if self.decision is None else 1.0 if self.decision.success else 0.0


class CancelledError(Exception):
    """The run was cancelled before this trajectory's next request."""


class JudgeSession:
    """One judge on one endpoint: judges trajectories, alone or many at once."""

    def __init__(self, judge: Judge, profile: EndpointProfile, transport: ChatTransport) -> None:
        self.judge = judge
        """The method."""
        self.profile = profile
        """The endpoint and parameters."""
        self.transport = transport
        """How requests are sent (and cached)."""
        self.judge_id = judge_id(judge, profile)
        """The id its score files are named by."""
        self.cancel = threading.Event()
        """Set to stop: no request starts after it."""
        self._fan_out: ThreadPoolExecutor | None = None
        self._fan_out_lock = threading.Lock()

    def fan_out(self) -> ThreadPoolExecutor:
        """The threads independent requests of a trajectory are sent on (made on first use; as many
        as the concurrency: the transport holds the rest back anyway).
        """
        with self._fan_out_lock:
            if self._fan_out is None:
                self._fan_out = ThreadPoolExecutor(
                    self.profile.concurrency, thread_name_prefix="judge-request"
                )
            return self._fan_out

    def decide(self, material: JudgeMaterial) -> JudgeOutcome:
        """Judge one trajectory without writing anything (the "what if")."""
        started = time.monotonic()
        ask = _Asker(self)
        tally = ask.tally
        try:
            decision: JudgeDecision | None = self.judge.decide(material, self.profile, ask)
            status = JudgeStatus.SUCCESS if decision and decision.success else JudgeStatus.FAILURE
            reason = None
        except JudgeCallError as exc:
            decision, status, reason = None, JudgeStatus.ERROR, exc.reason
        cost = JudgeCost(
            calls=len(tally),
            cached_calls=sum(r.cached for r in tally),
            prompt_tokens=sum(r.prompt_tokens for r in tally),
            completion_tokens=sum(r.completion_tokens for r in tally),
            seconds=round(time.monotonic() - started, 3),
        )
        return JudgeOutcome(
            folder=material.folder,
            task_id=material.task_id,
            judge_id=self.judge_id,
            status=status,
            reason=reason,
            decision=decision,
            cost=cost,
        )

    def judge_folder(self, folder: Path, *, again: bool = False) -> JudgeOutcome:
        """Judge one folder and write its verdict; skipped when this judge judged it before
        (unless `again`), refused when another's file has the name.
        """
        owner = file_owner(folder, self.judge_id)
        if owner is FileOwner.OTHER:
            return self._error(
                folder, f"{judge_file_path(folder, self.judge_id).name} is not this judge's file; left alone"
            )
        if owner is FileOwner.OURS and not again:
            return JudgeOutcome(
                folder=folder, task_id=folder.name, judge_id=self.judge_id, status=JudgeStatus.JUDGED_BEFORE
            )
        try:
            material = load_material(folder)
        except UnreadableError as exc:
            return self._error(folder, exc.reason)
        outcome = self.decide(material)
        if outcome.decision is None:
            return outcome
        content = judge_file_bytes(
            outcome.decision, self.judge_id, judge_identity(self.judge, self.profile), outcome.cost
        )
        try:
            written = write_judge_file(folder, self.judge_id, content)
        except ScoreWriteError as exc:
            return outcome.model_copy(
                update={"status": JudgeStatus.ERROR, "reason": str(exc), "decision": None}
            )
        return outcome.model_copy(update={"written": written.path})

    def judge_folders(
        self,
        folders: Iterable[Path],
        *,
        again: bool = False,
        concurrency: int | None = None,
        on_outcome: Callable[[JudgeOutcome], None] | None = None,
    ) -> list[JudgeOutcome]:
        """Judge every folder, `concurrency` at once, in the order given; each outcome passed to
        `on_outcome` as it ends. A Ctrl-C (or whatever `on_outcome` raises, the app's Cancel) sets
        `cancel` and lets the trajectories in flight end: those decided are written and passed to
        `on_outcome` too (so it is told of every file written), the rest start nothing; then it is
        raised again.
        """
        outcomes: dict[Path, JudgeOutcome] = {}
        order = list(folders)
        workers = concurrency or self.profile.concurrency

        def ended(outcome: JudgeOutcome) -> None:
            outcomes[outcome.folder] = outcome
            if on_outcome is not None:
                on_outcome(outcome)

        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge") as pool:
            ahead = _Ahead(pool, workers, lambda f: self._guarded(f, again))
            try:
                for outcome in ahead.outcomes(order):
                    ended(outcome)
            except BaseException:
                self.cancel.set()
                pool.shutdown(wait=True, cancel_futures=True)
                for outcome in ahead.rest():
                    ended(outcome)
                raise
            finally:
                self.close()
        return [outcomes[folder] for folder in order if folder in outcomes]

    def close(self) -> None:
        """End the fan-out threads (made again if the session judges more)."""
        with self._fan_out_lock:
            threads, self._fan_out = self._fan_out, None
        if threads is not None:
            threads.shutdown(wait=True)

    def _guarded(self, folder: Path, again: bool) -> JudgeOutcome:
        try:
            return self.judge_folder(folder, again=again)
        except CancelledError:
            raise  # not an outcome: nothing was decided or written (`_Ahead.rest` leaves it out)
        except Exception as exc:  # whatever one folder does, the run goes on (said, not raised)
            return self._error(folder, f"could not be judged ({type(exc).__name__}: {exc})")

    def _error(self, folder: Path, reason: str) -> JudgeOutcome:
        return JudgeOutcome(
            folder=folder,
            task_id=folder.name,
            judge_id=self.judge_id,
            status=JudgeStatus.ERROR,
            reason=reason,
        )


class _Asker:
    """A judge's `Ask` for one trajectory: its replies tallied, independent requests sent on the
    session's fan-out threads (so one trajectory's screenshots fill the concurrency, not only
    several trajectories at once), nothing started once the session is cancelled.
    """

    def __init__(self, session: JudgeSession) -> None:
        self.session = session
        self.tally: list[ChatReply] = []

    def __call__(self, request: ChatRequest) -> ChatReply:
        if self.session.cancel.is_set():
            raise CancelledError
        reply = self.session.transport.send(request)
        self.tally.append(reply)
        return reply

    def many(self, requests: Sequence[ChatRequest]) -> list[ChatReply]:
        if len(requests) <= 1:
            return [self(request) for request in requests]
        threads = self.session.fan_out()
        futures = [threads.submit(contextvars.copy_context().run, self, request) for request in requests]
        wait(futures)
        return [future.result() for future in futures]  # the first failure raised, in order


class _Ahead:
    """Folders judged on a pool, never more than twice `workers` submitted ahead (a list of 100,000
    folders is not all queued at once); each outcome given as it ends, and after a cancel the
    outcomes of those in flight.
    """

    def __init__(self, pool: ThreadPoolExecutor, workers: int, work: Callable[[Path], JudgeOutcome]) -> None:
        self._pool = pool
        self._workers = workers
        self._work = work
        self._submitted: dict[Future[JudgeOutcome], int] = {}
        """Submitted and not yet given, each with its place in the order."""

    def outcomes(self, folders: Iterable[Path]) -> Iterator[JudgeOutcome]:
        """Each folder's outcome as it ends."""
        for place, folder in enumerate(folders):
            # Each in the caller's context: the identity a write acts as (`policy.acting_as`) goes along.
            self._submitted[self._pool.submit(contextvars.copy_context().run, self._work, folder)] = place
            if len(self._submitted) >= 2 * self._workers:
                yield from self._ended()
        while self._submitted:
            yield from self._ended()

    def rest(self) -> list[JudgeOutcome]:
        """Once the pool is shut down: the outcomes submitted and not yet given, in order; those
        cancelled before they started, or before their trajectory was decided, left out.
        """
        ended = sorted((place, future) for future, place in self._submitted.items() if _decided(future))
        self._submitted.clear()
        return [future.result() for _, future in ended]

    def _ended(self) -> Iterator[JudgeOutcome]:
        done, _ = wait(self._submitted, return_when=FIRST_COMPLETED)
        for future in done:
            del self._submitted[future]  # before it is given: what the caller raises then is after it
            yield future.result()


def _decided(future: Future[JudgeOutcome]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None
