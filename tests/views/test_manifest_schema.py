"""Every ``--json`` says what made it (a ``manifest``), and ``bid --json`` follows the
published JSON Schema (docs/schema/bid.schema.json)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim import __version__
from boston_sim.cli import app

runner = CliRunner()
SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "schema" / "bid.schema.json"
HAND = "KQJT9.AK.QJ2.432"


def _json(*args: str) -> dict:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


@pytest.mark.parametrize("rules, extra", [
    ("boston_foster", []),
    ("boston_russian", ["--turnup", "H2", "--senior", "S"]),
    ("fontainebleau_foster", []),
])
def test_bid_json_follows_the_schema(rules, extra):
    jsonschema = pytest.importorskip("jsonschema")
    d = _json("bid", HAND, "--rules", rules, "--samples", "4", "--seed", "2", "--json", *extra)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(d, schema)
    assert d["schema_version"] == schema["properties"]["schema_version"]["const"]


def test_the_schema_catches_a_broken_output():
    jsonschema = pytest.importorskip("jsonschema")
    d = _json("bid", HAND, "--samples", "4", "--json")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    del d["rungs"][0]["p_make"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(d, schema)


def test_bid_manifest_says_what_made_it():
    d = _json("bid", HAND, "--samples", "4", "--seed", "7", "--threads", "1", "--json",
              "-o", "payments=american")
    m = d["manifest"]
    assert m["version"] == __version__ and m["command"] == "bid"
    assert m["seed"] == 7 and m["samples"] == 4 and m["threads"] == 1
    assert m["rules"]["id"] == "boston_foster"
    assert m["rules"]["options"]["payments"] == "american"
    digest = hashlib.sha256(Path(m["rules"]["file"]).read_bytes()).hexdigest()
    assert m["rules"]["sha256"] == digest
    assert m["numba"] and m["numpy"] and m["platform"] and m["started"]
    assert m["settings"]["seed"] == 7
    # run from a checkout: the commit is recorded
    root = Path(__file__).resolve().parents[2]
    if (root / ".git").exists():
        assert m["git_commit"] and len(m["git_commit"].split("-")[0]) == 40


@pytest.mark.parametrize("args", [
    ["rules", "boston_foster", "--json"],
    ["score", "--rules", "boston_foster", "eight", "7", "--json"],
    ["partout", "6", "2", "5", "0", "--json"],
])
def test_other_json_outputs_carry_a_manifest(args):
    d = _json(*args)
    assert d["manifest"]["command"] == args[0]
    assert d["manifest"]["version"] == __version__


def test_batch_json_carries_a_manifest(tmp_path):
    quick = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"
    hands = tmp_path / "h.txt"
    hands.write_text("AKQJT98.AK.A2.32 | eldest\n")
    d = _json("batch", str(hands), "--rules", str(quick), "--turnup", "H2", "--samples", "2",
              "--seed", "5", "--threads", "1", "-q", "--json", "--out", str(tmp_path / "r.csv"))
    m = d["manifest"]
    assert m["command"] == "batch" and m["seed"] == 5 and m["samples"] == 2
    assert m["threads"] == 1 and m["settings"]["turnup"] == "H2"
    from boston_sim.batch import ROW_SCHEMA_VERSION

    assert m["row_schema_version"] == ROW_SCHEMA_VERSION


def test_the_manifest_builder_is_a_foundation_module():
    """The batch writes manifests too, so the builder imports nothing of the package but its
    version (the batch may not import the views)."""
    import ast

    src = Path(__file__).resolve().parents[2] / "boston_sim" / "manifest.py"
    internal = set()
    for node in ast.walk(ast.parse(src.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            internal |= {f"{node.module or ''}:{a.name}" for a in node.names}
    assert internal == {":__version__"}


def test_manifest_values_are_plain_json():
    import numpy as np

    from boston_sim.manifest import plain

    got = plain({"a": np.float64("nan"), "b": np.arange(2), "c": (np.int64(2), 1.5)})
    assert got == {"a": None, "b": [0, 1], "c": [2, 1.5]}
    json.dumps(got, allow_nan=False)
