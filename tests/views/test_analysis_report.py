"""``Analysis.report()``: the text ``boston-sim bid`` prints, from the Python API (rendered by
the views, reached through the package so that the analysis imports nothing above it)."""

from __future__ import annotations

from typer.testing import CliRunner

import boston_sim as bs
from boston_sim.cli import app

HAND = "KQJT9.AK.QJ2.432"


def _strip_time(text: str) -> str:
    """The report's title says how long the analysis took; everything else must agree."""
    import re

    return re.sub(r"\d+\.\d(?=\s+s;)", "T", text)


def test_report_is_the_text_bid_prints():
    a = bs.analyze(HAND, samples=8, seed=3)
    res = CliRunner().invoke(app, ["bid", HAND, "--samples", "8", "--seed", "3", "-q"],
                             env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert _strip_time(a.report()) == _strip_time(res.stdout)
    assert a.report() == bs.report_text(a)


def test_report_width_and_a_short_repr():
    a = bs.analyze(HAND, samples=8, seed=3)
    narrow = a.report(width=60)
    assert max(map(len, narrow.splitlines())) <= 60 and "Recommendation" in narrow
    assert max(map(len, a.report(width=140).splitlines())) > 80
    assert len(repr(a)) < 300 and "Recommendation" not in repr(a)


def test_no_printed_line_ends_in_blanks():
    """rich pads the title and keeps the blank where it wraps; a saved report must not."""
    a = bs.analyze(HAND, samples=8, seed=3)
    res = CliRunner().invoke(app, ["bid", HAND, "--samples", "8", "--seed", "3", "-q"],
                             env={"COLUMNS": "80"})
    rules = CliRunner().invoke(app, ["rules", "boston_foster"], env={"COLUMNS": "80"})
    for text in (a.report(), a.report(width=60), res.stdout, rules.stdout):
        lines = text.splitlines()
        assert len(lines) > 10 and lines == [x.rstrip() for x in lines]
    # only the blanks went: the same words as rich's own rendering, and it had some
    import io

    from rich.console import Console

    from boston_sim.views.table import print_report

    buf = io.StringIO()
    print_report(a, Console(file=buf, width=80, color_system=None, highlight=False))
    raw = buf.getvalue()
    assert raw != a.report() and raw.split() == a.report().split()


def test_a_void_shows_as_typed_in_the_title():
    a = bs.analyze("-.KQ2.K763.K97542", samples=4, seed=1)
    assert a.hand == ".KQ2.K763.K97542"  # the data keep PBN's empty suit
    assert a.report().startswith("Boston (Foster's Hoyle): -.KQ2.K763.K97542 (eldest)")


def test_analysis_does_not_import_the_views():
    """The layering holds: the report is reached through ``boston_sim``, not imported."""
    import ast
    from pathlib import Path

    src = Path(bs.__file__).parent / "analysis" / "result.py"
    names = {n.module or "" for n in ast.walk(ast.parse(src.read_text()))
             if isinstance(n, ast.ImportFrom)}
    assert not any("views" in n for n in names)
