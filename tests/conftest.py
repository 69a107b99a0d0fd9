"""Shared test fixtures, kept small and generic (several test files use them).

* ``tests/`` is put on ``sys.path`` so test modules can ``import naive`` (the slow reference
  solver) whatever pytest's import mode.
* ``data_dir``: the repository's ``data/`` directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent

if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The repository's ``data/`` directory (rules, golden positions, example hands)."""
    return REPO_ROOT / "data"
