"""Red suits in red when the terminal shows colour; none when ``NO_COLOR`` is set or the
output is not a terminal."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from boston_sim import analyze
from boston_sim.views import print_report

RED = "\x1b[31m"


@pytest.fixture(scope="module")
def hearts():
    a = analyze("AK.KQJT9.QJ2.432", samples=4, seed=1)
    assert any(r["trump"] == "H" for r in a.rung_rows)
    return a


def _render(a, **console_args) -> str:
    buf = io.StringIO()
    print_report(a, Console(file=buf, width=120, **console_args))
    return buf.getvalue()


def test_hearts_are_red_on_a_colour_terminal(hearts, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = _render(hearts, force_terminal=True, color_system="standard")
    assert f"{RED}♥" in out
    assert f"{RED}♠" not in out


def test_no_color_is_honoured(hearts, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = _render(hearts, force_terminal=True, color_system="standard")
    assert "♥" in out and f"{RED}♥" not in out


def test_no_colour_codes_in_a_pipe(hearts):
    assert "\x1b[" not in _render(hearts)
