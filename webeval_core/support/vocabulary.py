"""Words every layer writes the same way, kept below them all so each can use them without loading
more than this file (a warm `webeval index` loads no model library).
"""

import math

UNKNOWN = "unknown"
"""THE one word for a value a trajectory does not have (a task the catalog does not know, no verdict
status): the group filters and charts put it in, and what every view and export writes."""

UNDEFINED = "–"
"""What an agreement figure with nothing behind it reads (kappa when every item is one class,
precision with no success): undefined for those items, which is not zero and not unknown."""


def percent(rate: float | None) -> str:
    """THE way a rate is written, in every view, export and command: `57.1%`; a rate with nothing
    behind it (None, NaN) is `UNKNOWN`.
    """
    return UNKNOWN if rate is None or math.isnan(rate) else f"{rate:.1%}"


def percent_range(low: float, high: float) -> str:
    """An interval of rates, `41.0% – 62.3%`."""
    return f"{percent(low)} – {percent(high)}"


def agreement_figure(value: float | None) -> str:
    """An agreement figure (kappa, accuracy, a share of pairs): three decimals, else `UNDEFINED`."""
    return UNDEFINED if value is None or math.isnan(value) else f"{value:.3f}"
