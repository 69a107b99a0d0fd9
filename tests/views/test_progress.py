"""The one progress bar (boston_sim.progress): counts work, draws nothing when disabled."""

from __future__ import annotations

from boston_sim.progress import ProgressBar


def test_a_disabled_bar_counts_and_draws_nothing(capsys) -> None:
    with ProgressBar("solving", 10, enabled=False) as bar:
        bar.advance(3)
        bar.update(5, 12)
        bar.advance()
    assert (bar.done, bar.total) == (6, 12)
    assert capsys.readouterr() == ("", "")


def test_an_enabled_bar_starts_and_stops_twice_safely() -> None:
    bar = ProgressBar("hands", 2, count=True, rate="hands/min", transient=False)
    with bar:
        bar.advance()
        bar.set_total(3)
        bar.advance(2)
    bar.stop()
    assert (bar.done, bar.total) == (3, 3)
