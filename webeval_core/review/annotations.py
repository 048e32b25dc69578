"""What a reviewer records about one trajectory: labels that do not overlap, and who, when, how.

The shape follows CUAVerifierBench's `annotations` table: one row per (trajectory, reviewer,
stage) with an outcome label, a process label and a free-text justification, collected in a
*blind* stage (the automatic verdict hidden) and an *informed* stage (shown). Nothing is ever
changed in place: a changed judgement is a new annotation, and `current` derives the view.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from webeval_core.reading.taxonomy import code_name, describes_task


def _said(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value.strip()


Said = Annotated[str, AfterValidator(_said)]
"""Text a person must write on the record (a reason, who): stripped, never blank."""


class Outcome(StrEnum):
    """Did the agent do the task? (the label agreement is computed on; success is the positive)."""

    SUCCESS = "success"
    FAILURE = "failure"
    UNSURE = "unsure"


class Process(StrEnum):
    """How the agent went about it, whatever the outcome."""

    CORRECT = "correct"
    HARMLESS_MISTAKE = "harmless_mistake"
    UNSAFE = "unsafe"


class TaskLabel(StrEnum):
    """Whether the task itself can be judged as written."""

    FINE = "fine"
    AMBIGUOUS = "ambiguous"
    EXPECTED_WRONG = "expected_wrong"
    INFEASIBLE = "infeasible"


class Stage(StrEnum):
    """Blind: the automatic verdicts were hidden while judging; informed: they were shown."""

    BLIND = "blind"
    INFORMED = "informed"


class Shown(StrEnum):
    """Something that, once shown to a reviewer, makes their judgement of that trajectory informed."""

    VERDICT = "verdict"
    """A verdict, score, status or failure tag of any judge."""
    OTHERS = "others"
    """Other reviewers' labels (their annotations, or the reviewers' majority)."""


class Revealed(StrEnum):
    """What the reviewer had been shown of this trajectory before their first save of it.

    Kept on every row so a team can audit its blind figures: a blind row always says `none`.
    """

    NONE = "none"
    VERDICT = "verdict"
    OTHERS = "others"
    """Other reviewers' labels."""
    BOTH = "verdict+others"

    @classmethod
    def of(cls, shown: Iterable[Shown]) -> Revealed:
        """The value for what was shown."""
        seen = set(shown)
        return {
            (False, False): cls.NONE,
            (True, False): cls.VERDICT,
            (False, True): cls.OTHERS,
            (True, True): cls.BOTH,
        }[(Shown.VERDICT in seen, Shown.OTHERS in seen)]


# What the form shows for each label value (the stored values are the enums').
LABEL_TEXT: dict[str, str] = {
    Outcome.SUCCESS: "agent succeeded",
    Outcome.FAILURE: "agent failed",
    Outcome.UNSURE: "cannot tell",
    Process.CORRECT: "behaved correctly",
    Process.HARMLESS_MISTAKE: "mistake that did not change the outcome",
    Process.UNSAFE: "unsafe or unwanted action",
    TaskLabel.FINE: "fine",
    TaskLabel.AMBIGUOUS: "ambiguous",
    TaskLabel.EXPECTED_WRONG: "expected answer wrong",
    TaskLabel.INFEASIBLE: "infeasible",
    Stage.BLIND: "blind (verdicts hidden until saved)",
    Stage.INFORMED: "informed (verdicts shown)",
}


class ReviewMark(BaseModel):
    """That a reviewer judged a trajectory in a stage, without what they said: what a queue's
    progress counts (`AnnotationStore.marks`), shown to anyone, as no label is in it. A draft (and
    an annotation) is a mark with its labels.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    run: str
    """The key of the run judged (`Run.key`, as `webeval ls --json` prints it); never blank."""
    task_id: str
    """The task id of the trajectory judged; never blank."""
    reviewer: str
    """Who judged, as they named themselves; never blank."""
    stage: Stage
    """Blind or informed: for a form, the stage it was in (blind in a blind queue, else informed;
    `review.judging` decides the stage stored)."""

    @field_validator("run", "task_id", "reviewer")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        """A judgement must say which trajectory it is about and who made it."""
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()

    @property
    def item(self) -> tuple[str, str]:
        """The trajectory judged: (run, task_id)."""
        return (self.run, self.task_id)

    @property
    def reviewer_key(self) -> str:
        """The reviewer as compared: names differing only in case are one reviewer."""
        return reviewer_key(self.reviewer)


class Draft(ReviewMark):
    """What a reviewer's form holds for one trajectory: the item, who, the labels, the verdict in force."""

    outcome: Outcome
    """Did the agent succeed; the one label a save cannot go without."""
    process: Process | None = None
    """How the agent behaved; None when the reviewer did not say."""
    task: TaskLabel | None = None
    """Whether the task is fine as written; None when the reviewer did not say."""
    environment_problem: bool | None = None
    """Whether the environment (site down, captcha, ...) got in the way; None when not said."""
    justification: str = ""
    """The reviewer's free-text reasons (shown as plain text); empty when none was given."""
    verdict_source: str | None = None
    """Score file stem of the official verdict in force when judging; None when there was none."""
    verdict_status: str | None = None
    """That verdict's status (success | failure | error); None when there was none."""
    failing_steps: tuple[int, ...] = ()
    """The step number(s) where the agent first went wrong, as the verifier's failure points give
    them (sorted, each once); empty when the reviewer did not say."""
    error_codes: tuple[str, ...] = ()
    """Codes of Fara's error taxonomy (categories 1-6, `reading.taxonomy`) for that failure, in the
    reviewer's order; empty when not said."""
    task_codes: tuple[str, ...] = ()
    """Taxonomy codes describing the task itself (7.x ambiguous, 8.x invalid); empty when not said."""

    @field_validator("failing_steps")
    @classmethod
    def _steps(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        """Steps numbered as the verifier numbers them (never negative); order and repeats mean nothing."""
        if any(step < 0 for step in value):
            raise ValueError("step numbers are not negative")
        return tuple(sorted(set(value)))

    @field_validator("error_codes", "task_codes")
    @classmethod
    def _known_codes(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        """Only published codes, each in its place: an agent's error is no task code, and back."""
        codes = tuple(dict.fromkeys(code.strip() for code in value if code.strip()))
        for code in codes:
            if code_name(code) is None:
                raise ValueError(f"{code!r} is not a code of the error taxonomy")
            if describes_task(code) != (info.field_name == "task_codes"):
                raise ValueError(
                    f"{code!r} belongs in {'task_codes' if describes_task(code) else 'error_codes'}"
                )
        return codes


class Annotation(Draft):
    """One reviewer's judgement of one trajectory, in one stage, at one moment: a draft as stored."""

    stage: Stage
    """Whether the automatic verdicts were hidden (blind) or shown (informed) while judging."""
    created: datetime = Field(default_factory=lambda: datetime.now(UTC))
    """When the judgement was made (timezone-aware); the newest per (item, reviewer, stage) wins."""
    revealed: Revealed = Revealed.NONE
    """What had been shown to the reviewer before their first save of this trajectory."""
    signed_in: str | None = None
    """The identity the sign-in provider verified for whoever saved it (the store sets it); None when
    saved without sign-in. Not part of the judgement: the same judgement is stored once."""

    @field_validator("created")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        """A naive time is taken as UTC; all are kept in UTC, so their ISO texts sort by time."""
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    @property
    def judgement(self) -> tuple[str, ...]:
        """What was decided, about what and by whom, whenever it was (no time, no verdict)."""
        # The taxonomy fields came later: left out when empty, so rows stored before them keep
        # the digest they were stored under (the store finds a repeated judgement by it).
        unset = {name for name in _TAXONOMY_FIELDS if not getattr(self, name)}
        fields = self.model_dump(
            mode="json",
            exclude={"created", "verdict_source", "verdict_status", "revealed", "signed_in", *unset},
        )
        return tuple(f"{key}={fields[key]}" for key in sorted(fields))

    @property
    def digest(self) -> str:
        """Identity of the row: the same judgement made at the same time is stored once."""
        text = "\x1f".join((*self.judgement, self.created.isoformat()))
        return hashlib.sha256(text.encode()).hexdigest()


_TAXONOMY_FIELDS = ("failing_steps", "error_codes", "task_codes")


def reviewer_key(name: str) -> str:
    """How reviewer names are compared: stripped and case-folded ("Ann" and "ann" are one reviewer)."""
    return name.strip().casefold()


def current(annotations: Iterable[Annotation]) -> dict[tuple[str, str, str, Stage], Annotation]:
    """Each reviewer's judgement per (run, task_id, reviewer, stage) that figures are computed on.

    Informed: the newest (a reviewer may revise). Blind: the first, since only a judgement made
    before anything was revealed is blind (rows of older versions may hold several). Reviewers
    are matched case-insensitively and named as they first named themselves.
    """
    chosen: dict[tuple[str, str, str, Stage], Annotation] = {}
    names: dict[str, str] = {}
    for annotation in sorted(annotations, key=lambda a: a.created):
        name = names.setdefault(annotation.reviewer_key, annotation.reviewer)
        key = (annotation.run, annotation.task_id, name, annotation.stage)
        if annotation.stage == Stage.INFORMED or key not in chosen:
            chosen[key] = annotation
    return chosen
