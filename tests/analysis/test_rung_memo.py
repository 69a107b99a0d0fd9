"""A rung scored in an earlier round of the same analysis is reused while its searches'
results are unchanged, and within a rung scored again each unchanged candidate
(``evaluate.RungMemo``): every round's scoring is the same as without."""

from __future__ import annotations

import json

import boston_sim.analysis.api as api
from boston_sim.analysis import analyze
from boston_sim.analysis.evaluate import RungMemo

MIXED = "KQJT9.AK.QJ2.432"


def _scorings(monkeypatch) -> list[str]:
    """Every round's rows and recommendation, as the analysis scores them."""
    seen: list[str] = []
    evaluate = api.evaluate

    def spy(*args, **kwargs):
        ev = evaluate(*args, **kwargs)
        seen.append(json.dumps([ev.rows, ev.recommendation.recommended], sort_keys=True,
                               default=str))
        return ev

    monkeypatch.setattr(api, "evaluate", spy)
    return seen


def test_every_round_scores_the_same_with_rungs_reused(small_rounds, monkeypatch):
    hits, misses = [], []
    get = RungMemo.get

    def counting(self, rung_id, inputs):
        hit = get(self, rung_id, inputs)
        (misses if hit is None else hits).append(rung_id)
        return hit

    kept = []
    candidate = RungMemo.candidate

    def counting_candidates(self, slot, inputs):
        hit = candidate(self, slot, inputs)
        if hit is not None:
            kept.append(slot)
        return hit

    monkeypatch.setattr(RungMemo, "get", counting)
    monkeypatch.setattr(RungMemo, "candidate", counting_candidates)
    seen = _scorings(monkeypatch)
    reused = analyze(MIXED, seed=8, threads=1).to_dict()
    with_memo = list(seen)
    assert hits and misses  # some rungs reused, some (their searches went on) scored again
    assert kept and {rung for rung, _ in kept} <= set(misses)  # rescored rungs kept some

    monkeypatch.setattr(RungMemo, "get", lambda self, rung_id, inputs: None)
    monkeypatch.setattr(RungMemo, "candidate", lambda self, slot, inputs: None)
    seen.clear()
    fresh = analyze(MIXED, seed=8, threads=1).to_dict()
    assert len(with_memo) > 1
    assert seen == with_memo
    assert json.dumps(reused, sort_keys=True) == json.dumps(fresh, sort_keys=True)
