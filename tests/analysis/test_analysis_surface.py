"""The Python API's surface: a short ``repr`` of an analysis, a plain-text report, and
type information shipped with the package."""

from __future__ import annotations

from pathlib import Path

import boston_sim as bs
from boston_sim.views import report_text

MAX_REPR = 300


def test_analysis_repr_is_short_and_says_the_answer():
    a = bs.analyze("KQJT9.AK.QJ2.432", samples=4, seed=1)
    r = repr(a)
    assert len(r) < MAX_REPR
    assert "KQJT9.AK.QJ2.432" in r and repr(a.recommended) in r


def test_report_text_is_the_printed_report():
    a = bs.analyze("KQJT9.AK.QJ2.432", samples=4, seed=1)
    text = report_text(a, width=80)
    assert "Recommendation" in text and max(map(len, text.splitlines())) <= 80


def test_the_package_is_typed():
    pkg = Path(bs.__file__).parent
    assert (pkg / "py.typed").exists()
    src = (pkg / "__init__.py").read_text(encoding="utf-8")
    for name in bs.__all__:  # every public name is visible to a type checker
        assert name == "__version__" or f" {name}" in src.split("if TYPE_CHECKING:")[1]
