"""Words every layer writes the same way, kept below them all so each can use them without loading
more than this file (a warm `webeval index` loads no model library).
"""

UNKNOWN = "unknown"
"""THE one word for a value a trajectory does not have (a task the catalog does not know, no verdict
status): the group filters and charts put it in, and what every view and export writes."""
