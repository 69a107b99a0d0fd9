"""Every saved plot says what made it: the manifest as JSON text in the image's metadata (a
PNG text chunk ``boston_sim.manifest``, an SVG's dc:description, a PDF's Subject); a batch
plot also carries the manifest of the results it draws."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim import __version__
from boston_sim.cli import app
from boston_sim.views import plots

QUICK = Path(__file__).resolve().parent.parent / "data" / "quick_rules.toml"
runner = CliRunner()


@pytest.fixture(scope="module")
def analysis():  # type: ignore[no-untyped-def]
    from boston_sim.analysis import analyze

    return analyze("AKQJT98.AK.A2.32", rules=str(QUICK), turnup="H2", samples=8, seed=4)


def png_manifest(path: Path) -> dict:
    from PIL import Image

    with Image.open(path) as im:
        return json.loads(im.text["boston_sim.manifest"])


def svg_manifest(path: Path) -> dict:
    root = ET.parse(path).getroot()
    desc = root.find(".//{http://purl.org/dc/elements/1.1/}description")
    assert desc is not None
    return json.loads(desc.text)


def pdf_subject_manifest(path: Path) -> dict:
    """The Subject string of a PDF's info dictionary (a literal string: balanced parentheses
    kept, backslash escapes undone) read as JSON."""
    data = path.read_bytes()
    i = data.index(b"/Subject (") + len(b"/Subject (")
    out, depth = bytearray(), 1
    while True:
        c = data[i : i + 1]
        if c == b"\\":
            out += data[i + 1 : i + 2]
            i += 2
            continue
        depth += {b"(": 1, b")": -1}.get(c, 0)
        if depth == 0:
            return json.loads(out.decode("latin-1"))
        out += c
        i += 1


def test_a_hand_plot_carries_its_manifest_in_every_format(tmp_path, analysis):
    pytest.importorskip("PIL")
    for ext in (".png", ".svg", ".pdf"):
        plots.plot_hand(analysis, tmp_path / f"h{ext}")
    for m in (png_manifest(tmp_path / "h.png"), svg_manifest(tmp_path / "h.svg")):
        assert m["command"] == "plot" and m["version"] == __version__
        assert (m["seed"], m["samples"]) == (4, 8) and m["rules"]["file"] == str(QUICK)
        assert m["settings"]["turnup"] == "H2" and m["numpy"] and m["started"]
    m = pdf_subject_manifest(tmp_path / "h.pdf")
    assert m["command"] == "plot" and (m["seed"], m["samples"]) == (4, 8)


def test_bid_plot_and_batch_plot_say_what_made_them(tmp_path):
    pytest.importorskip("PIL")
    res = runner.invoke(app, ["bid", "AKQJT98.AK.A2.32", "--rules", str(QUICK), "--turnup",
                              "H2", "--samples", "4", "--seed", "9", "--plot",
                              str(tmp_path / "bid.png"), "-q"])
    assert res.exit_code == 0, res.output
    m = png_manifest(tmp_path / "bid.png")
    assert m["command"] == "bid" and m["seed"] == 9 and m["samples"] == 4

    hands = tmp_path / "h.txt"
    hands.write_text("AKQJT98.AK.A2.32 | eldest | a\n")
    for fmt in ("csv", "parquet"):
        out = tmp_path / f"r.{fmt}"
        res = runner.invoke(app, ["batch", str(hands), "--rules", str(QUICK), "--turnup", "H2",
                                  "--samples", "2", "--seed", "3", "--threads", "1", "-q",
                                  "--out", str(out)])
        assert res.exit_code == 0, res.output
        res = runner.invoke(app, ["plot", str(out), "--out", str(tmp_path / f"{fmt}.png")])
        assert res.exit_code == 0, res.output
        m = png_manifest(tmp_path / f"{fmt}.png")
        assert m["command"] == "plot" and m["options"]["results"] == str(out)
        made = m["results_manifest"]
        assert made["command"] == "batch" and made["seed"] == 3 and made["samples"] == 2
