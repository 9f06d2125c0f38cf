"""Settings for bench/load_pages.py: production settings, static files in a temporary folder.

The production profile serves hashed static files from a manifest that collectstatic writes;
the load test must not write it into the checkout's staticfiles/ (tests run from there).
"""

from __future__ import annotations

import os
from pathlib import Path

from decklab.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])
