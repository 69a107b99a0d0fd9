"""tools/bracket_bias.py, which makes docs/BRACKET.md's evidence table: its hand filter and
its pooling of per-hand records."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import numpy as np

from boston_sim.cards import parse_hand

TOOL = Path(__file__).resolve().parents[2] / "tools" / "bracket_bias.py"


def _tool():
    spec = importlib.util.spec_from_file_location("bracket_bias", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_honourless_hands_hold_no_honour_and_follow_the_seed():
    tool = _tool()
    hands = tool.honourless_hands(20, 5)
    assert hands == tool.honourless_hands(20, 5) and hands != tool.honourless_hands(20, 6)
    for h in hands:
        assert bin(parse_hand(h)).count("1") == 13
        assert not any(c in h for c in "AKQJ")


def _record(rules, hand, fam, diffs):
    """A per-hand record as hand_record writes it, from per-deal differences."""
    d = np.asarray(diffs, float)
    st = {"ev_diff": float(d.mean()), "ev_diff_se": float(d.std(ddof=1) / math.sqrt(len(d))),
          "deals": len(d)}
    return {"rules": rules, "hand": hand, "rungs": {"r": {"family": fam, **{
        f: st for f in ("blind_lead", "declarer_single_dummy", "defence_single_dummy",
                        "single_dummy")}}}}


def test_pool_weights_hands_by_deals_and_keeps_rule_sets_apart(tmp_path):
    tool = _tool()
    rng = np.random.default_rng(3)
    a, b, c = rng.normal(5, 3, 12), rng.normal(-1, 2, 24), rng.normal(40, 1, 12)
    f1, f2 = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    f1.write_text(json.dumps(_record("x", "h1", "misères", a)) + "\n")
    f2.write_text(json.dumps(_record("x", "h2", "misères", b)) + "\n"
                  + json.dumps(_record("y", "h3", "misères", c)) + "\n")
    out = tool.pool([str(f1), str(f2)])
    assert out["hands"] == {"x": 2, "y": 1}
    mean, se, deals = out["table"][("x", "misères")]["single_dummy"]
    assert deals == 36 and math.isclose(mean, np.concatenate([a, b]).mean())
    # the SE of a deal-weighted mean of independent hand means
    sa, sb = a.std(ddof=1) / math.sqrt(12), b.std(ddof=1) / math.sqrt(24)
    assert math.isclose(se, math.hypot(12 * sa, 24 * sb) / 36)
    assert math.isclose(out["table"][("y", "misères")]["single_dummy"][0], c.mean())
