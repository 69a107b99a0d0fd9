"""The one settings object: immutable, hashable, picklable, round-trips through JSON values."""

from __future__ import annotations

import json
import pickle

import pytest

from boston_sim.config import DEFAULT_RULES, DEFAULT_SEAT
from boston_sim.settings import AnalysisSettings


def test_defaults_come_from_config() -> None:
    s = AnalysisSettings()
    assert (s.rules, s.seat) == (DEFAULT_RULES, DEFAULT_SEAT)


def test_mappings_and_lists_are_frozen_in_order() -> None:
    s = AnalysisSettings(options={"b": "1", "a": "2"}, known=["SA@W"], constraints=["second:S>=5"])
    assert s.options == (("b", "1"), ("a", "2"))
    assert list(s.option_map) == ["b", "a"]
    assert s.known == ("SA@W",)
    with pytest.raises(AttributeError):
        s.seed = 3  # type: ignore[misc]
    assert hash(s) == hash(AnalysisSettings(options=[("b", "1"), ("a", "2")], known=("SA@W",),
                                            constraints=("second:S>=5",)))


def test_round_trip_through_json_and_pickle() -> None:
    s = AnalysisSettings(seat="third", options={"payments": "american"}, samples=40, seed=9,
                         turnup="H2", context={"senior": "S"}, threads=2)
    assert AnalysisSettings.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    assert pickle.loads(pickle.dumps(s)) == s


def test_result_dict_leaves_out_threads_only() -> None:
    a = AnalysisSettings(seed=1, threads=1).result_dict()
    b = AnalysisSettings(seed=1, threads=8).result_dict()
    assert a == b and "threads" not in a
    assert AnalysisSettings(seed=2).result_dict() != b


def test_build_ignores_none_for_fields_with_a_value_by_default() -> None:
    s = AnalysisSettings.build(seat=None, rules=None, samples=None, seed=5)
    assert (s.seat, s.rules, s.samples, s.seed) == (DEFAULT_SEAT, DEFAULT_RULES, None, 5)
    base = AnalysisSettings(samples=30)
    assert AnalysisSettings.build(base, samples=None).samples is None  # None is its default
    with pytest.raises(TypeError):
        AnalysisSettings.build(colour="red")
