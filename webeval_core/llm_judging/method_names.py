"""The judging methods' names and what each is, in words: all the command line's parser needs
(building it must not import the methods, pydantic or the client: every `webeval` command builds it).
"""

from __future__ import annotations

OUTCOME = "outcome"
"""The outcome judge, after WebVoyager's."""
WEBJUDGE = "webjudge"
"""WebJudge, after Online-Mind2Web's."""
RUBRIC = "rubric"
"""The rubric verifier, of the Universal Verifier's shape."""

METHOD_WORDS: dict[str, str] = {
    OUTCOME: "outcome judge (WebVoyager's method: task, answer, last screenshots)",
    WEBJUDGE: "WebJudge (Online-Mind2Web's: key points, screenshot scores, final judgement)",
    RUBRIC: "rubric verifier (the Universal Verifier's output: rubric, outcome, failure points)",
}
"""Each method in words, for pickers and help, by name."""
