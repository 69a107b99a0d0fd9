"""Fixtures shared by the analysis tests."""

from __future__ import annotations

import pytest

import boston_sim.analysis.rounds as rounds


@pytest.fixture
def small_rounds(monkeypatch):
    """The default mode's rounds scaled down (10 samples a round, at most 40, SE target 0.1)
    so that searches can settle within a fast test: the tunables of the stopping rule, as
    ``boston_sim.analysis.rounds`` reads them (returned)."""
    monkeypatch.setattr(rounds, "ROUND", 10)
    monkeypatch.setattr(rounds, "DEFAULT_SAMPLES", 40)
    monkeypatch.setattr(rounds, "SE_TARGET", 0.1)
    return rounds
