"""The package version, in one place (the index cache and `webeval --version` read it)."""

__version__ = "0.1.0"
