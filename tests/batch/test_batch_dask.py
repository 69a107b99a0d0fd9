"""Local and Dask runs agree exactly: the same seed gives byte-identical results and summary
files whether the hands run in this process, in local worker processes or on a Dask cluster
(a ``LocalCluster`` with two worker processes, reached through its scheduler address)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import import_or_skip

from boston_sim.batch import run_batch

distributed = import_or_skip("distributed")

QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"  # Solo + Misère only


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_local_processes_and_dask_cluster_agree_exactly(tmp_path: Path, scheduler: str) -> None:
    src = tmp_path / "hands.txt"
    src.write_text("AKQJT98.AK.A2.32 | eldest\nKQ.AJ975.K84.Q63 | second\n"
                   "5432.543.543.543 | third\nKQJT9.AK.QJ2.432 | eldest | four\n")
    common = {"seed": 21, "samples": 4, "rules": str(QUICK), "turnup": "H2"}
    inproc = run_batch(src, tmp_path / "inproc.csv", workers=1, **common)
    pool = run_batch(src, tmp_path / "pool.csv", workers=2, **common)
    dask = run_batch(src, tmp_path / "dask.csv", scheduler=scheduler, **common)
    for s in (inproc, pool, dask):
        assert (s.failed, s.done) == (0, 4), s
    ref = Path(inproc.results).read_bytes()
    assert Path(pool.results).read_bytes() == ref
    assert Path(dask.results).read_bytes() == ref
    assert Path(dask.summary).read_bytes() == Path(inproc.summary).read_bytes()
    assert Path(pool.summary).read_bytes() == Path(inproc.summary).read_bytes()


def test_dask_failures_are_reported_not_raised(tmp_path: Path, scheduler: str) -> None:
    f = tmp_path / "h.txt"
    # the dealer declares and the turn-up H2 is not in his hand: the analysis refuses it
    f.write_text("AKQJT98.AK.A2.32 | eldest\nAKQJT98.AK.A2.32 | dealer\n")
    s = run_batch(f, tmp_path / "r.jsonl", scheduler=scheduler, seed=1, samples=4,
                  rules=str(QUICK), turnup="H2")
    assert (s.done, s.failed) == (1, 1)
    first = json.loads(Path(s.errors).read_text().splitlines()[0])  # JSON Lines, as r.jsonl
    assert (first["line"], first["hand_id"]) == (2, 1)


def test_any_failure_to_reach_the_scheduler_is_one_line(tmp_path: Path, monkeypatch) -> None:
    """distributed may fail to connect with errors of its own (a bare AssertionError was seen
    under load): each becomes the project's one-line error, never a traceback."""
    from boston_sim.errors import BostonSimError

    src = tmp_path / "hands.txt"
    src.write_text("AKQJT98.AK.A2.32 | eldest\n")

    def broken(*args, **kwargs):
        raise AssertionError

    monkeypatch.setattr(distributed, "Client", broken)
    with pytest.raises(BostonSimError, match="cannot reach the Dask scheduler at host:1: "
                                             "AssertionError"):
        run_batch(src, tmp_path / "r.csv", scheduler="host:1", samples=2, rules=str(QUICK),
                  turnup="H2")
