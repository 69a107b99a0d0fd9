"""Packaging: the built-in rule sets ship with the package (pyproject.toml maps data/rules to
the package boston_sim.rules_data), and the explicit package list misses no package."""

from __future__ import annotations

import tomllib
from pathlib import Path

from boston_sim.rules import DATA_DIR, list_rules

REPO = Path(__file__).resolve().parent.parent


def _setuptools() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]


def test_every_package_directory_is_listed() -> None:
    """A directory of boston_sim/ holding Python files must be in the package list, or a
    wheel would leave it out."""
    listed = set(_setuptools()["packages"])
    found = {
        ".".join(p.relative_to(REPO).parts)
        for p in (REPO / "boston_sim").rglob("*")
        if p.is_dir() and p.name != "__pycache__" and any(p.glob("*.py"))
    } | {"boston_sim"}
    assert found <= listed, found - listed


def test_rule_sets_are_package_data() -> None:
    cfg = _setuptools()
    assert cfg["package-dir"]["boston_sim.rules_data"] == "data/rules"
    assert "boston_sim.rules_data" in cfg["packages"]
    assert cfg["package-data"]["boston_sim.rules_data"] == ["*.toml"]
    # every built-in rule set is a *.toml of that directory, so the wheel carries them all
    assert sorted(p.stem for p in (REPO / "data" / "rules").glob("*.toml")) == list_rules()
    # in this checkout the loader reads data/rules (an installed wheel: boston_sim/rules_data)
    assert DATA_DIR in (REPO / "data" / "rules", REPO / "boston_sim" / "rules_data")
