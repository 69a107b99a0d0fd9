"""The manifest as the views write it: the version of the ``bid --json`` object, and the
builder every output shares (:mod:`boston_sim.manifest`, a foundation module so that the
batch can write it too)."""

from __future__ import annotations

from ..manifest import (
    MANIFEST_KEY,
    file_sha256,
    git_commit,
    manifest,
    now_utc,
    plain,
    with_manifest,
)

SCHEMA_VERSION = 1
"""Version of the ``bid --json`` object (docs/schema/bid.schema.json); raised when a key
changes meaning or goes away."""

__all__ = ["MANIFEST_KEY", "SCHEMA_VERSION", "file_sha256", "git_commit", "manifest",
           "now_utc", "plain", "with_manifest"]
