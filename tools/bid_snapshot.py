"""Write (or check) the bid JSON of a fixed set of hands, to show a refactor changes no answer.

    python tools/bid_snapshot.py write DIR    # run every case, one JSON file per case in DIR
    python tools/bid_snapshot.py check DIR    # run again, compare byte for byte with DIR

Cases: 8 hands x 2 rule sets with a fixed --samples and seed, plus the default adaptive mode
on two hands and a batch run over data/hands/examples.txt. Exit 1 if any output differs.
The files in tests/data/bid_snapshots count every deal: check them with
``BOSTON_SIM_FAIL_COUNT_RATE=1 BOSTON_SIM_MAKE_COUNT_RATE=1`` in the environment.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from boston_sim.cli import main; main()"]
HANDS = [
    ("AJT.Q3.QJT973.K4", "eldest"),
    ("AK8.KT73.KQ932.9", "second"),
    ("962.42.A3.KJT962", "eldest"),
    ("KQ.AJ975.K84.Q63", "third"),
    ("QT95.54.T973.J86", "dealer"),
    ("AQJT9.AK.KJ2.432", "eldest"),
    ("32..QJT853.AK742", "second"),
    ("J74.872.AKQ863.5", "third"),
]
RULES = ["boston_foster", "solo_whist_foster"]
SAMPLES = "24"
SEED = "7"


def _turnup(hand: str, seat: str) -> str:
    """The turn-up lies with the dealer: his lowest spade-first card when he declares, else
    a deuce the declarer does not hold."""
    for suit, held in zip("SHDC", hand.split("."), strict=True):
        if seat == "dealer" and held:
            return suit + held[-1]
        if seat != "dealer" and "2" not in held:
            return suit + "2"
    raise ValueError(hand)


def cases() -> list[tuple[str, list[str]]]:
    out = []
    for i, (hand, seat) in enumerate(HANDS):
        for rules in RULES:
            extra = ["--turnup", _turnup(hand, seat)] if rules == "solo_whist_foster" else []
            out.append((f"bid_{i}_{rules}.json",
                        ["bid", hand, "--seat", seat, "--rules", rules, *extra,
                         "--samples", SAMPLES, "--seed", SEED, "--json", "-q"]))
    for i in (0, 5):
        hand, seat = HANDS[i]
        out.append((f"bid_{i}_default.json", ["bid", hand, "--seat", seat, "--seed", SEED,
                                              "--json", "-q"]))
    return out


def run_case(args: list[str]) -> bytes:
    """The bid's JSON without what differs from run to run or machine to machine (the
    manifest: start time, versions, platform) and its schema version."""
    r = subprocess.run([*CLI, *args], cwd=REPO, capture_output=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {r.stderr.decode()[-500:]}")
    data = json.loads(r.stdout)
    for key in ("manifest", "schema_version"):
        data.pop(key, None)
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def run_batch() -> bytes:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "r.csv"
        r = subprocess.run([*CLI, "batch", "data/hands/examples.txt", "--out", str(out),
                            "--samples", "10", "--seed", SEED, "--workers", "1"],
                           cwd=REPO, capture_output=True, check=False)
        if r.returncode not in (0, 1):
            raise SystemExit(f"batch failed: {r.stderr.decode()[-500:]}")
        return out.read_bytes()


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "check"):
        print(__doc__)
        return 2
    mode, folder = sys.argv[1], Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    results = [(name, lambda a=args: run_case(a)) for name, args in cases()]
    results.append(("batch_examples.csv", run_batch))
    bad = 0
    for name, fn in results:
        data = fn()
        path = folder / name
        if mode == "write":
            path.write_bytes(data)
            print(f"wrote {path}")
        else:
            same = path.exists() and path.read_bytes() == data
            bad += not same
            print(f"{'same' if same else 'DIFFERENT'}  {name}")
    if mode == "check":
        print(f"{len(results) - bad} same, {bad} different")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
