"""The notes under a bid's table: tied to the rows they concern by a marker, each printed
once, only those that apply (no Piccolissimo in classic Boston), and no bare time line."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from boston_sim import analyze
from boston_sim.views import print_report
from boston_sim.views.table import NOTE_MARKS

HAND = "KQJT9.AK.QJ2.432"


def _report(a, width: int = 80) -> list[str]:
    buf = io.StringIO()
    print_report(a, Console(file=buf, width=width, color_system=None))
    return buf.getvalue().splitlines()


@pytest.fixture(scope="module")
def classic():
    return analyze(HAND, samples=6, seed=4)


def test_each_note_once_and_marked_on_its_rows(classic):
    lines = _report(classic)
    notes = [ln for ln in lines if ln[:1] in NOTE_MARKS]
    assert notes, lines
    assert len(notes) == len(set(notes))
    table = [ln for ln in lines if ln not in notes]
    for note in notes:
        mark = note[0]
        assert any(mark in ln for ln in table), (mark, lines)  # tied to a row
    # the misère rows carry the yes/no marker, the trick contracts none
    yes_no = next(n[0] for n in notes if "yes/no search" in n)
    assert any("Little Misère" in ln and yes_no in ln for ln in table)
    assert not any("Six Tricks" in ln and yes_no in ln for ln in table)


def test_no_note_that_does_not_apply_and_no_bare_time(classic):
    text = "\n".join(_report(classic))
    assert "Piccolissimo" not in text
    assert not [ln for ln in text.splitlines() if re.fullmatch(r"\s*[\d.]+ s\s*", ln)]
    title = " ".join(ln.strip() for ln in text.splitlines()[:2])  # the title, unwrapped
    assert f"{classic.elapsed:.1f} s" in title
    notes = [ln for ln in text.splitlines() if ln.startswith("note:")]
    assert len(notes) == len(set(notes))
    assert not [n for n in notes if "yes/no" in n or "settled early" in n]


def test_piccolissimo_rows_say_how_they_count():
    a = analyze(HAND, rules="fontainebleau_foster", samples=4, seed=1)
    lines = _report(a, 160)
    note = next(ln for ln in lines if "1 if made, 0 if failed" in ln)
    picc = [r["name"] for r in a.rung_rows if r["kind"] == "exactly"]
    assert picc and any(picc[0] in ln and note[0] in ln for ln in lines)
