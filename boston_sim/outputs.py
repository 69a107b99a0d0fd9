"""Output files: checked before any work, written whole or not at all.

:func:`check_output` refuses, before an analysis starts, every output that would fail or
destroy something afterwards: an input file, a directory, a FIFO or a device, an unknown
extension, a missing directory, a path through a file, a name too long, a directory that
cannot be written. :func:`atomic_output` writes beside the target under a temporary name and
renames on success, so a failed command leaves no new partial file behind (and an existing
file is either replaced whole or left as it was). This module imports only
:mod:`boston_sim.errors` and :mod:`boston_sim.limits`, so every layer may use it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import OutputError, WriteFailure
from .limits import clip

NAME_MAX = 255  # bytes of one path component (Linux, macOS)
PATH_MAX = 4096  # bytes of a whole path
TEMP_MARK = ".tmp-"  # temporary names: ".NAME.tmp-PID.EXT" beside the target
# errno values that mean the request itself is wrong (exit 2); any other OSError is a failure
USAGE_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EACCES, errno.EPERM,
                          errno.ENAMETOOLONG, errno.ELOOP, errno.EINVAL, errno.ENXIO})


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _check_names(p: Path, what: str) -> None:
    if len(os.fsencode(str(p))) > PATH_MAX:
        raise OutputError(f"{what}: the path is longer than {PATH_MAX} bytes")
    for part in p.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise OutputError(f"{what}: the name {clip(part)} is longer than {NAME_MAX} bytes")


def _check_parent(p: Path, what: str) -> None:
    """The directory that will hold ``p`` exists, is a directory and can be written."""
    parent = p.parent if str(p.parent) else Path(".")
    if parent.is_dir():
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OutputError(f"{what}: cannot write in the directory {clip(parent)}")
        return
    up = parent
    while not up.exists() and up != up.parent:
        up = up.parent
    if up.exists() and not up.is_dir():
        raise OutputError(f"{what}: {clip(up)} is a file, not a directory")
    raise OutputError(f"{what}: the directory {clip(parent)} does not exist")


def check_output(path: str | Path, what: str, *, suffixes: Iterable[str] | None = None,
                 inputs: Iterable[str | Path] = (), directory: bool = False) -> Path:
    """``path`` as a :class:`Path` if it may be written, else :class:`OutputError`.

    ``what`` names the option in messages (``--csv``). ``suffixes``: the extensions allowed
    (lower case, with the dot). ``inputs``: files the command reads; writing over one is
    refused. ``directory``: the output is a directory (Parquet parts), so an existing
    directory is fine and an existing file is not.
    """
    p = Path(path)
    if not str(path).strip():
        raise OutputError(f"{what}: empty file name")
    _check_names(p, what)
    if suffixes is not None:
        allowed = tuple(suffixes)
        if p.suffix.lower() not in allowed:
            raise OutputError(f"{what}: cannot tell the format of {clip(p)}; use a file name "
                              f"ending in {', '.join(allowed)}")
    for src in inputs:
        if _same_file(p, Path(src)):
            raise OutputError(f"{what}: {clip(p)} is an input of this command; "
                              "choose another output")
    try:
        st = os.stat(p)
    except FileNotFoundError:
        _check_parent(p, what)
        return p
    except OSError as e:  # ENOTDIR (a path through a file), ELOOP, EACCES, ENAMETOOLONG
        if e.errno == errno.ENOTDIR:
            _check_parent(p, what)
        raise OutputError(f"{what}: cannot write {clip(p)}: {e.strerror}") from None
    if stat.S_ISDIR(st.st_mode) and not directory:
        raise OutputError(f"{what}: {clip(p)} is a directory")
    if directory and not stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{what}: {clip(p)} exists and is not a directory")
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        raise OutputError(f"{what}: {clip(p)} is not a regular file (a device, FIFO or socket)")
    target = p if directory else p.parent if str(p.parent) else Path(".")
    if not os.access(target, os.W_OK) or (not directory and not os.access(p, os.W_OK)):
        raise OutputError(f"{what}: cannot write {clip(p)}: permission denied")
    return p


def temp_path(path: Path) -> Path:
    """A temporary name beside ``path``, with the same extension (plotting libraries pick
    the format from it), hidden, and unique to this process."""
    return path.with_name(f".{path.stem}{TEMP_MARK}{os.getpid()}{path.suffix}")


def io_failure(e: OSError, path: str | Path, doing: str = "write") -> Exception:
    """An :class:`OSError` met while writing ``path`` as a project error: a usage error
    (:class:`OutputError`) when the path itself is wrong, else :class:`WriteFailure` (disk
    full, read-only file system). Names ``path``, never a temporary file."""
    reason = e.strerror or str(e)
    if e.errno in USAGE_ERRNOS:
        return OutputError(f"cannot {doing} {clip(path)}: {reason}")
    return WriteFailure(f"cannot {doing} {clip(path)}: {reason}")


def replace_synced(tmp: Path, dest: Path) -> None:
    """Flush ``tmp`` to disk, then rename it over ``dest``: a crash leaves the old file or
    the whole new one, never a part."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, dest)


@contextlib.contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` to write; on success it is fsynced and renamed
    onto ``path``; on any failure it is removed and ``path`` is left as it was. OSErrors come
    out as project errors naming ``path``."""
    p = Path(path)
    tmp = temp_path(p)
    try:
        yield tmp
        replace_synced(tmp, p)
    except OSError as e:
        _discard(tmp)
        raise io_failure(e, p) from None
    except BaseException:
        _discard(tmp)
        raise


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (:func:`atomic_output`)."""
    with atomic_output(path) as tmp, open(tmp, "wb") as f:
        f.write(data)
        f.flush()


def _discard(tmp: Path) -> None:
    with contextlib.suppress(OSError):
        tmp.unlink()
