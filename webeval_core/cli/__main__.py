"""`python -m webeval_core.cli`: the `webeval` command without its console script."""

import sys

from webeval_core.cli.entry import main

sys.exit(main())
