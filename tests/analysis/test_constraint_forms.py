"""The shell-safe constraint forms (``second:H5+``, ``dealer:H0-1``, ``third:hcp12-15``,
shapes, ``/`` for or, ``,`` for and) mean what they say, match the quoted comparison form,
and paste into a shell unquoted."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from boston_sim.cards import parse_hand
from boston_sim.errors import SamplingError
from boston_sim.sampler import Sampler, accept_mask, hcps, parse_constraint, suit_lengths

HAND = parse_hand("KQJT9.AK.QJ2.432")
N, E, S, W = range(4)


def _deals(n: int = 3000, seed: int = 5) -> np.ndarray:
    return Sampler(HAND, N, seed=seed).draw(n).deals


DEALS = _deals()


@pytest.mark.parametrize("new, old", [
    ("second:H5+", ["second:H>=5"]),
    ("dealer:H0-1", ["dealer:H>=0", "dealer:H<=1"]),
    ("dealer:H1-", ["dealer:H<=1"]),
    ("third:hcp12+", ["third:hcp>=12"]),
    ("third:hcp12-15", ["third:hcp>=12", "third:hcp<=15"]),
    ("second:D3", ["second:D=3"]),
    ("second:♥5+", ["second:H>=5"]),
])
def test_shell_safe_forms_equal_the_comparison_forms(new, old):
    got = accept_mask(DEALS, [parse_constraint(new)])
    want = accept_mask(DEALS, [parse_constraint(o) for o in old])
    assert got.any() and (got == want).all()


def test_or_and_and():
    h_e, s_e = suit_lengths(DEALS[:, E], 1), suit_lengths(DEALS[:, E], 0)
    got = accept_mask(DEALS, [parse_constraint("second:H5+/S5+")])
    assert (got == ((h_e >= 5) | (s_e >= 5))).all()
    assert (accept_mask(DEALS, [parse_constraint("second:H5+ or S5+")]) == got).all()
    pts, h_s = hcps(DEALS[:, S]), suit_lengths(DEALS[:, S], 1)
    got = accept_mask(DEALS, [parse_constraint("third:hcp12+,H4+")])
    assert got.any() and (got == ((pts >= 12) & (h_s >= 4))).all()
    mixed = accept_mask(DEALS, [parse_constraint("third:hcp12+,H4+/S6+")])
    assert (mixed == (got | (suit_lengths(DEALS[:, S], 0) >= 6))).all()


def test_shapes():
    lens = np.stack([suit_lengths(DEALS[:, E], s) for s in range(4)], axis=1)
    got = accept_mask(DEALS, [parse_constraint("second:shape=5xxx+4xxx")])
    assert got.any() and (got == np.isin(lens[:, 0], [4, 5])).all()
    flat = accept_mask(DEALS, [parse_constraint("second:shape=any4333")])
    assert (flat == (np.sort(lens, axis=1) == [3, 3, 3, 4]).all(axis=1)).all()
    minus = accept_mask(DEALS, [parse_constraint("second:shape=xxxx-any4333")])
    assert (minus == ~flat).all()


def test_the_sampler_honours_a_shape_and_an_or():
    cons = [parse_constraint("second:shape=4xxx+5xxx"), parse_constraint("third:H5+/D5+")]
    d = Sampler(HAND, N, constraints=cons, seed=2).draw(40).deals
    assert np.isin(suit_lengths(d[:, E], 0), [4, 5]).all()
    assert ((suit_lengths(d[:, S], 1) >= 5) | (suit_lengths(d[:, S], 2) >= 5)).all()


@pytest.mark.parametrize("bad", ["second:H", "second:H5+5", "second:hcp15-12",
                                 "second:shape=5xx", "second:shape=9xxx-9xxx", "second:H5+/",
                                 "second:Z5+"])
def test_bad_forms_are_user_errors(bad):
    with pytest.raises(SamplingError):
        parse_constraint(bad)


def test_impossible_shapes_are_caught_before_sampling():
    # the declarer holds five spades: no other seat can hold nine
    with pytest.raises(SamplingError, match="never be met"):
        Sampler(HAND, N, constraints=[parse_constraint("second:shape=9xxx")])


@pytest.mark.parametrize("text", ["second:H5+", "dealer:H0-1", "third:hcp12+",
                                  "third:hcp12-15", "second:shape=5xxx+4xxx",
                                  "second:H5+/S5+", "third:hcp12+,H4+", "eldest:has=SK"])
def test_the_forms_paste_into_a_shell_unquoted(tmp_path, text):
    """The shell passes each form through unchanged and creates no file (a ``>`` would)."""
    out = subprocess.run(["bash", "-c", f"printf '%s' {text}"], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout
    assert out == text and not list(tmp_path.iterdir())
    parse_constraint(out)
