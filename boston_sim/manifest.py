"""What made an output: the ``manifest`` object every ``--json``, batch output and plot
carries (package version, git commit when run from a checkout, rule set and the SHA-256 of
its file, options, seed, samples, threads, numba and numpy versions, platform, start time),
so that a result file can be traced and reproduced.

A foundation module (standard library only), so that the batch, which writes the manifest
of its outputs, and the views, which write it into JSON and images, share one builder.
"""

from __future__ import annotations

import functools
import hashlib
import math
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

GIT_TIMEOUT_S = 2.0
MANIFEST_KEY = "boston_sim.manifest"
"""Key of the manifest in a Parquet file's key-value metadata and in an image's metadata."""

_PACKAGE_DIR = Path(__file__).resolve().parent


def now_utc() -> str:
    """The current time, ISO 8601 in UTC to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@functools.cache
def git_commit() -> str | None:
    """The commit of the checkout the package runs from (``-dirty`` when it has uncommitted
    changes), or None for an installed package or without git."""
    root = _PACKAGE_DIR.parent
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=GIT_TIMEOUT_S, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=GIT_TIMEOUT_S, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}-dirty" if dirty else head


def file_sha256(path: str | Path | None) -> str | None:
    """SHA-256 of a file's bytes, or None when there is no readable file."""
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def manifest(*, command: str, rules: Any = None, options: dict[str, Any] | None = None,
             seed: int | None = None, samples: int | None = None, threads: int | None = None,
             started: str | None = None, settings: Any = None) -> dict[str, Any]:
    """The manifest of one output. ``rules``: the loaded rule set (its id, name and file are
    recorded); ``options``: the command's own options worth keeping; ``settings``: the
    analysis settings, whose fields deciding the numbers are recorded."""
    from . import __version__

    out: dict[str, Any] = {
        "package": "boston-sim",
        "version": __version__,
        "git_commit": git_commit(),
        "command": command,
        "started": started or now_utc(),
        "rules": None if rules is None else {
            "id": rules.id, "file": str(rules.path), "sha256": file_sha256(rules.path),
            "options": {k: plain(v) for k, v in rules.options.items()},
        },
        "options": {k: plain(v) for k, v in (options or {}).items()},
        "seed": seed,
        "samples": samples,
        "threads": threads,
        "numba": _version("numba"),
        "numpy": _version("numpy"),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
    if settings is not None:
        out["settings"] = {k: plain(v) for k, v in settings.to_dict().items()}
    return out


def with_manifest(obj: dict[str, Any], command: str, **kw: Any) -> dict[str, Any]:
    """``obj`` with a ``manifest`` key added last (see :func:`manifest`)."""
    return {**obj, "manifest": manifest(command=command, **kw)}


def plain(v: Any) -> Any:
    """A value as JSON: numpy scalars as Python numbers, NaN as None, mappings and sequences
    kept, anything else as text."""
    if callable(getattr(v, "tolist", None)):
        v = v.tolist()  # a numpy scalar or array, without importing numpy
    if isinstance(v, float):
        return None if math.isnan(v) else v
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return str(v)
