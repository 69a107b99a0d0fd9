"""The manifest as the views write it: the version of the ``bid --json`` object, and the
builder every output shares (:mod:`boston_sim.manifest`, a foundation module so that the
batch can write it too)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..manifest import (
    MANIFEST_KEY,
    file_sha256,
    git_commit,
    manifest,
    now_utc,
    plain,
    with_manifest,
)

if TYPE_CHECKING:
    from ..analysis import Analysis

SCHEMA_VERSION = 1
"""Version of the ``bid --json`` object (docs/schema/bid.schema.json); raised when a key
changes meaning or goes away."""

__all__ = ["MANIFEST_KEY", "SCHEMA_VERSION", "file_sha256", "git_commit", "hand_manifest",
           "manifest", "now_utc", "plain", "with_manifest"]


def hand_manifest(analysis: Analysis, command: str = "plot",
                  started: str | None = None) -> dict[str, Any]:
    """The manifest of an output made from one analysis (``bid --json``, a plot)."""
    a = analysis
    threads = a.settings.threads if a.settings is not None else None
    return manifest(command=command, rules=a.rules, seed=a.seed, samples=a.samples,
                    threads=threads, started=started, settings=a.settings)
