"""Shared test fixtures, kept small and generic (several test files use them).

* ``tests/`` is put on ``sys.path`` so test modules can ``import naive`` (the slow reference
  solver) whatever pytest's import mode.
* ``data_dir``: the repository's ``data/`` directory.
* ``small_rounds``: the default mode's rounds scaled down, for fast tests of the rounds.
* ``import_or_skip`` / ``skip_unless_ci``: a missing test dependency skips a test on a
  developer's machine, but fails it under CI (``CI`` set, as ``.ci/run`` is run), where the
  DDS and Dask comparisons must actually run.
"""

from __future__ import annotations

import importlib
import os
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


@pytest.fixture
def small_rounds(monkeypatch):
    """The default mode's rounds scaled down (10 samples a round, at most 40, SE target 0.1)
    so that searches can settle within a fast test: the tunables of the stopping rule, as
    ``boston_sim.analysis.rounds`` reads them (returned)."""
    import boston_sim.analysis.rounds as rounds

    monkeypatch.setattr(rounds, "ROUND", 10)
    monkeypatch.setattr(rounds, "DEFAULT_SAMPLES", 40)
    monkeypatch.setattr(rounds, "SE_TARGET", 0.1)
    return rounds


def skip_unless_ci(reason: str) -> None:
    """Skip the calling test, or fail it under CI (where nothing may be missing)."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI: a missing test dependency is a failure, not a skip)")
    pytest.skip(reason, allow_module_level=True)


def import_or_skip(name: str):
    """``pytest.importorskip``, except under CI, where the import must succeed."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        skip_unless_ci(f"could not import {name}: {e}")
