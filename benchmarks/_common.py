"""What the benchmarks share: the repository's root, put on `sys.path` so that a benchmark run as a
script (``.venv/bin/python benchmarks/x.py``) can use the test helpers it measures with, such as
the loopback stand-ins of tests/stand_ins.py."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
