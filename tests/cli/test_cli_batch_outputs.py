"""Every batch output says what made it and follows the published row schema: the
``manifest`` of ``meta.json`` beside every results file (CSV, JSON Lines, Parquet), the
``boston_sim.manifest`` metadata of Parquet files, and result rows that validate against
docs/schema/batch_row.schema.json."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim import __version__
from boston_sim.batch import ROW_COLUMNS, ROW_SCHEMA_VERSION, load_results, output_paths
from boston_sim.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
ROW_SCHEMA_FILE = ROOT / "docs" / "schema" / "batch_row.schema.json"
QUICK = ROOT / "tests" / "data" / "quick_rules.toml"
HANDS = "AKQJT98.AK.A2.32 | eldest | a\nKQ.AJ975.K84.Q63 | second | b\n"


def _batch(tmp_path: Path, out: str, *extra: str) -> Path:
    hands = tmp_path / "h.txt"
    hands.write_text(HANDS)
    res = runner.invoke(app, ["batch", str(hands), "--rules", str(QUICK), "--turnup", "H2",
                              "--samples", "2", "--seed", "5", "--threads", "1", "-q",
                              "--out", str(tmp_path / out), *extra])
    assert res.exit_code == 0, res.output
    return hands


def _plain(v):
    return None if isinstance(v, float) and math.isnan(v) else v


def _schema() -> dict:
    return json.loads(ROW_SCHEMA_FILE.read_text(encoding="utf-8"))


def _check_manifest(m: dict, fmt: str) -> None:
    assert m["command"] == "batch" and m["version"] == __version__
    assert m["seed"] == 5 and m["samples"] == 2 and m["threads"] == 1
    assert m["rules"]["file"] == str(QUICK) and len(m["rules"]["sha256"]) == 64
    assert m["settings"]["turnup"] == "H2" and m["numba"] and m["started"]
    assert m["row_schema_version"] == ROW_SCHEMA_VERSION == _schema()["schema_version"], fmt


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_every_batch_output_carries_a_manifest_and_valid_rows(tmp_path, fmt):
    jsonschema = pytest.importorskip("jsonschema")
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    hands = _batch(tmp_path, f"r.{fmt}")
    paths = output_paths(hands, tmp_path / f"r.{fmt}", None)
    meta = json.loads(paths.meta.read_text(encoding="utf-8"))
    _check_manifest(meta["manifest"], fmt)
    schema = _schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    rows = load_results(paths.results).to_dict("records")
    assert len(rows) == 2 * rows[0]["n_rungs"] and list(rows[0]) == ROW_COLUMNS
    for row in rows:
        jsonschema.validate({k: _plain(v) for k, v in row.items()}, schema)
    if fmt == "jsonl":  # the file's own lines, as written
        for line in paths.results.read_text(encoding="utf-8").splitlines():
            jsonschema.validate(json.loads(line), schema)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        for p in (paths.results, paths.summary):
            raw = pq.read_schema(p).metadata[b"boston_sim.manifest"]
            _check_manifest(json.loads(raw), fmt)


def test_rows_say_kind_target_unit_and_time_limit(tmp_path):
    from boston_sim.rules import load_rules

    hands = _batch(tmp_path, "r.jsonl")
    rows = load_results(output_paths(hands, tmp_path / "r.jsonl", None).results)
    rules = load_rules(str(QUICK))
    first = rows[rows["hand_id"] == 0]
    assert list(first["kind"]) == [r.kind for r in rules.rungs]
    assert list(first["target"]) == [r.target for r in rules.rungs]
    assert set(rows["unit"]) == {rules.unit} and not rows["time_limited"].any()


def test_the_row_schema_catches_a_broken_row(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    hands = _batch(tmp_path, "r.jsonl")
    line = output_paths(hands, tmp_path / "r.jsonl", None).results.read_text().splitlines()[0]
    row = json.loads(line)
    for broken in ({k: v for k, v in row.items() if k != "p_make"}, {**row, "p_make": 1.5},
                   {**row, "seat": "north"}, {**row, "recommended": "yes"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, _schema())


def test_resume_keeps_working_with_the_manifest_beside_the_results(tmp_path):
    """JSON Lines keeps its manifest in the meta.json sidecar, so the results file stays plain
    rows: a resume after a lost hand redoes only that hand and refreshes the manifest."""
    hands = _batch(tmp_path, "r.jsonl")
    paths = output_paths(hands, tmp_path / "r.jsonl", None)
    whole = paths.results.read_bytes()
    lines = whole.decode().splitlines(keepends=True)
    n = json.loads(lines[0])["n_rungs"]
    paths.results.write_text("".join(lines[:n]))  # the second hand lost
    before = json.loads(paths.meta.read_text())["manifest"]
    _batch(tmp_path, "r.jsonl", "--resume")
    assert paths.results.read_bytes() == whole
    after = json.loads(paths.meta.read_text())["manifest"]
    assert after["command"] == "batch" and after["started"] >= before["started"]


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_the_errors_file_follows_the_output_format(tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    hands = tmp_path / "h.txt"
    hands.write_text("AKQJT98.AK.A2.32 | eldest\nnot a hand\n")
    res = runner.invoke(app, ["batch", str(hands), "--rules", str(QUICK), "--turnup", "H2",
                              "--samples", "2", "--threads", "1", "-q",
                              "--out", str(tmp_path / f"r.{fmt}")])
    assert res.exit_code == 1, res.output
    path = output_paths(hands, tmp_path / f"r.{fmt}", None).errors
    assert path.name == f"r.errors.{fmt}" and str(path) in res.stderr
    if fmt == "csv":
        import csv

        entries = list(csv.DictReader(path.open(encoding="utf-8")))
    elif fmt == "jsonl":
        entries = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    else:
        import pyarrow.parquet as pq

        entries = pq.read_table(path).to_pylist()
        meta = pq.read_schema(path).metadata[b"boston_sim.manifest"]
        assert json.loads(meta)["command"] == "batch"
    assert len(entries) == 1 and int(entries[0]["line"]) == 2 and entries[0]["reason"]
