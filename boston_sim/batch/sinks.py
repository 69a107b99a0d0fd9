"""Writing results so that a run killed at any moment loses at most the hands in flight.

CSV / JSON Lines (:class:`LineSink`): each finished hand's rows go out in one ``write`` +
``fsync``; Parquet (:class:`ParquetSink`): one hidden part file per hand, written to a
temporary name and renamed, merged into one results file of row groups at the end.
``open(resume=True)`` drops a torn or incomplete trailing hand and reports
every complete one. Whole tables (the summary, the settings) are written atomically.

The manifest (what made the results, :mod:`boston_sim.manifest`) is the ``manifest`` key of
the settings file ``meta.json`` beside every results file; a Parquet file also carries it in
its key-value metadata under ``boston_sim.manifest`` (JSON text), so that the file alone
says what made it. CSV and JSON Lines rows stay plain rows (no header line to skip).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..analysis.result import json_value
from ..errors import BostonSimError
from ..limits import clip
from ..manifest import MANIFEST_KEY
from ..outputs import atomic_output, replace_synced, write_bytes_atomic
from .records import (
    ERROR_COLUMNS,
    EXT_TO_OUTPUT,
    OUTPUT_EXT,
    OUTPUT_FORMATS,
    ROW_COLUMNS,
    ROW_SCHEMA,
)

PARTS_SUFFIX = ".parts"  # the hidden directory of a Parquet run's finished hands
ROW_GROUP_HANDS = 256  # hands per row group of a Parquet results file
_PART_NAME = re.compile(r"hand-\d+\.parquet")  # a results directory's part files
_PANDAS_DTYPES = {int: "int64", float: "float64", bool: "bool", str: "object"}


# --------------------------------------------------------------------------- values <-> text


def _fmt_csv(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return str(v)


def _parse_value(text: str, typ: type) -> Any:
    if typ is float:
        return math.nan if text == "" else float(text)
    if typ is int:
        return int(text)
    if typ is bool:
        if text not in ("true", "false"):
            raise ValueError(f"not a boolean: {text!r}")
        return text == "true"
    return text


def _from_json(v: Any, typ: type) -> Any:
    if typ is float:
        return math.nan if v is None else float(v)
    if typ is int:
        return int(v)
    if typ is bool:
        if not isinstance(v, bool):
            raise ValueError(f"not a boolean: {v!r}")
        return v
    return "" if v is None else str(v)


def encode_rows(rows: list[dict[str, Any]], fmt: str, columns: list[str]) -> bytes:
    """Rows -> the bytes of complete CSV or JSON Lines lines (no header)."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        for r in rows:
            w.writerow([_fmt_csv(r[c]) for c in columns])
        return buf.getvalue().encode("utf-8")
    lines = [
        json.dumps({c: json_value(r[c]) for c in columns}, ensure_ascii=False, allow_nan=False)
        for r in rows
    ]
    return ("".join(x + "\n" for x in lines)).encode("utf-8")


def rows_frame(rows: list[dict[str, Any]], schema: dict[str, type]) -> Any:
    """Rows -> pandas DataFrame with the column types of ``schema``."""
    import pandas as pd

    cols = list(schema)
    df = pd.DataFrame([[r[c] for c in cols] for r in rows], columns=cols)
    return df.astype({c: _PANDAS_DTYPES[t] for c, t in schema.items()})


# --------------------------------------------------------------------------- files


def _csv_header(columns: list[str]) -> bytes:
    return (",".join(columns) + "\n").encode("utf-8")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (temporary file beside it, fsync, rename; the
    temporary file is removed on failure)."""
    write_bytes_atomic(path, data)


def write_table(path: Path, rows: list[dict[str, Any]], schema: dict[str, type],
                fmt: str, manifest: dict[str, Any] | None = None) -> None:
    """Write a whole table atomically (temp file + rename) in ``fmt``; a Parquet file carries
    ``manifest`` in its metadata."""
    cols = list(schema)
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(rows_frame(rows, schema), preserve_index=False)
        with atomic_output(path) as tmp:
            pq.write_table(_with_metadata(table, manifest), tmp)
        return
    head = _csv_header(cols) if fmt == "csv" else b""
    atomic_write_bytes(path, head + encode_rows(rows, fmt, cols))


@dataclass(frozen=True)
class OutputPaths:
    results: Path
    summary: Path
    errors: Path
    meta: Path
    fmt: str


def output_paths(input_path: str | Path, out: str | Path | None, fmt: str | None) -> OutputPaths:
    """Where the results, summary, errors and run settings go.

    ``--out results.csv`` -> ``results.csv``, ``results.summary.csv``, ``results.errors.csv``
    and ``results.meta.json``; the summary and errors files follow the output format
    (``results.summary.parquet``, ``results.errors.jsonl``). The settings file of the other
    formats carries the format's name (``results.parquet.meta.json``), so that runs of one
    name in two formats never share it.
    Without ``--out`` the results sit next to the input: ``hands.txt`` ->
    ``hands.results.csv``.
    """
    if out is None:
        f = fmt or "csv"
        ext = OUTPUT_EXT[f]
        p = Path(input_path)
        base = p.with_name(p.stem + ".results")
        results = base.with_name(base.name + ext)
    else:
        results = Path(out)
        suffix = results.suffix.lower()
        # (the extension is what tells a later read, `plot` or --resume, the format)
        if suffix not in EXT_TO_OUTPUT and not results.is_dir():  # (a directory: refused later)
            raise BostonSimError(f"cannot tell the output format of {clip(results)} from its "
                                 f"extension; use {', '.join(EXT_TO_OUTPUT)}")
        f = EXT_TO_OUTPUT.get(suffix, fmt or "csv")
        if fmt is not None and fmt != f:
            raise BostonSimError(f"--format {fmt} contradicts the extension of "
                                 f"{clip(results)} ({f}): make them agree, or give one only")
        if f not in OUTPUT_FORMATS:
            raise BostonSimError(f"unknown output format {f!r} (use {', '.join(OUTPUT_FORMATS)})")
        ext = OUTPUT_EXT[f]
        base = results.with_suffix("") if results.suffix.lower() == ext else results
    summary = base.with_name(base.name + ".summary" + ext)
    side = base if f == "csv" else base.with_name(base.name + ext)
    errors = base.with_name(base.name + ".errors" + ext)
    meta = side.with_name(side.name + ".meta.json")
    return OutputPaths(results, summary, errors, meta, f)


# --------------------------------------------------------------------------- sinks


class LineSink:
    """CSV or JSON Lines results file, appended one hand at a time.

    Every hand's rows go out in one ``os.write`` followed by ``fsync``. A kill can therefore
    leave only the last hand torn (a partial line, or fewer than ``n_rungs`` rows); ``open``
    with ``resume`` drops such a hand and rewrites the file cleanly before appending.
    """

    def __init__(self, path: Path, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self.fd: int | None = None

    @property
    def _head(self) -> bytes:
        return _csv_header(ROW_COLUMNS) if self.fmt == "csv" else b""

    # reading -------------------------------------------------------------------------
    def _grouped(self) -> tuple[list[int], dict[int, list[tuple[bytes, dict[str, Any]]]]]:
        """The file's readable rows grouped by hand id, hand ids in file order."""
        data = self.path.read_bytes()
        data = data[: data.rfind(b"\n") + 1]  # a torn trailing line is not a row
        lines = data.splitlines(keepends=True)
        if self.fmt == "csv":
            if not lines:
                return [], {}
            header = next(csv.reader([lines[0].decode("utf-8")]))
            if header != ROW_COLUMNS:
                raise BostonSimError(f"{self.path} is not a results file of this boston-sim "
                                     "(its columns differ): write to a new file")
            lines = lines[1:]
        groups: dict[int, list[tuple[bytes, dict[str, Any]]]] = {}
        order: list[int] = []
        for raw in lines:
            try:
                row = self._decode(raw)
            except (ValueError, KeyError, TypeError, IndexError, RecursionError):
                continue  # a damaged line: its hand will be incomplete and redone
            hid = row["hand_id"]
            if hid not in groups:
                groups[hid] = []
                order.append(hid)
            groups[hid].append((raw, row))
        return order, groups

    def _blocks(self) -> list[tuple[int, bytes, list[dict[str, Any]]]]:
        """Complete hands in the file as (hand_id, raw bytes, rows), torn ones dropped."""
        order, groups = self._grouped()
        out = []
        for hid in order:
            g = groups[hid]
            n = g[0][1]["n_rungs"]
            rungs = [row["rung"] for _, row in g]
            if len(g) > n and len(g) % n == 0:
                # the same hand twice (cannot happen through resume; be safe): keep one set
                g = g[:n]
            elif not (len(g) == n and len(set(rungs)) == n):
                continue
            out.append((hid, b"".join(raw for raw, _ in g), [row for _, row in g]))
        return out

    def _decode(self, raw: bytes) -> dict[str, Any]:
        text = raw.decode("utf-8")
        if self.fmt == "csv":
            vals = next(csv.reader([text]))
            if len(vals) != len(ROW_COLUMNS):
                raise ValueError("wrong number of fields")
            return {c: _parse_value(v, ROW_SCHEMA[c])
                    for c, v in zip(ROW_COLUMNS, vals, strict=True)}
        obj = json.loads(text)
        return {c: _from_json(obj[c], ROW_SCHEMA[c]) for c in ROW_COLUMNS}

    def read_rows(self) -> list[dict[str, Any]]:
        """All complete rows, sorted by hand id (ladder order within a hand)."""
        if not self.path.exists():
            return []
        blocks = sorted(self._blocks(), key=lambda b: b[0])
        return [r for _, _, rows in blocks for r in rows]

    # writing -------------------------------------------------------------------------
    def open(self, resume: bool) -> set[int]:
        """Prepare the file for appending; returns the hand ids already complete in it."""
        done: set[int] = set()
        if resume and self.path.exists():
            blocks = self._blocks()
            done = {hid for hid, _, _ in blocks}
            clean = self._head + b"".join(raw for _, raw, _ in blocks)
            if self.path.read_bytes() != clean:
                atomic_write_bytes(self.path, clean)
        else:
            atomic_write_bytes(self.path, self._head)
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        return done

    def write_hand(self, rows: list[dict[str, Any]]) -> None:
        assert self.fd is not None
        _write_all(self.fd, encode_rows(rows, self.fmt, ROW_COLUMNS))
        os.fsync(self.fd)

    def finish(self) -> None:
        """Close, then rewrite the file sorted by hand id (atomically)."""
        self.close()
        if not self.path.exists():
            return
        blocks = sorted(self._blocks(), key=lambda b: b[0])
        atomic_write_bytes(self.path, self._head + b"".join(raw for _, raw, _ in blocks))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class ParquetSink:
    """One Parquet results file, a row group per :data:`ROW_GROUP_HANDS` hands.

    While the run goes, each finished hand is a part file in a hidden directory beside the
    results (``.r.parquet.parts/hand-000042.parquet``), written to a temporary name, fsynced
    and renamed, so a part exists complete or not at all and a killed run keeps every
    finished hand. ``finish`` merges the results file and the parts into a new results file
    (written atomically), then removes the parts. A results directory of part files (the
    layout of earlier versions) is still read by :func:`~boston_sim.batch.load_results`.
    """

    def __init__(self, path: Path, manifest: dict[str, Any] | None = None) -> None:
        self.path = path
        self.parts = path.with_name(f".{path.name}{PARTS_SUFFIX}")
        self.manifest = manifest  # written into the merged file's metadata

    def _part(self, hid: int) -> Path:
        return self.parts / f"hand-{hid:06d}.parquet"

    def _part_files(self) -> list[Path]:
        if not self.parts.is_dir():
            return []
        return sorted(p for p in self.parts.glob("hand-*.parquet") if _PART_NAME.fullmatch(p.name))

    def open(self, resume: bool) -> set[int]:
        if self.path.is_dir():
            raise BostonSimError(f"{self.path} is a directory (Parquet results are one file "
                                 "now); choose another --out")
        if not resume:
            self.path.unlink(missing_ok=True)
            shutil.rmtree(self.parts, ignore_errors=True)
        self.parts.mkdir(exist_ok=True)
        for p in self.parts.glob("*.tmp"):
            p.unlink()
        return {int(r["hand_id"]) for r in self.read_rows()}

    def write_hand(self, rows: list[dict[str, Any]]) -> None:
        part = self._part(rows[0]["hand_id"])
        tmp = part.with_suffix(".parquet.tmp")
        try:
            rows_frame(rows, ROW_SCHEMA).to_parquet(tmp, index=False)
            replace_synced(tmp, part)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def read_rows(self) -> list[dict[str, Any]]:
        """Every hand's rows, from the results file and the parts, sorted by hand id."""
        files = ([self.path] if self.path.is_file() else []) + self._part_files()
        by_hand: dict[int, list[dict[str, Any]]] = {}
        for p in files:
            for row in _parquet_rows(p):
                by_hand.setdefault(row["hand_id"], [])
                by_hand[row["hand_id"]].append(row)
        out: list[dict[str, Any]] = []
        for hid in sorted(by_hand):
            rows = by_hand[hid]
            out += rows[: rows[0]["n_rungs"]]  # a hand both merged and still in a part
        return out

    def finish(self) -> None:
        """Merge the results file and the parts into one results file, then drop the parts."""
        rows = self.read_rows()
        with atomic_output(self.path) as tmp:
            write_row_groups(tmp, rows, self.manifest)
        shutil.rmtree(self.parts, ignore_errors=True)

    def close(self) -> None:
        pass


def _with_metadata(table: Any, manifest: dict[str, Any] | None) -> Any:
    """``table`` with ``manifest`` as JSON text under :data:`MANIFEST_KEY` in its schema's
    key-value metadata (pandas' own metadata kept)."""
    if manifest is None:
        return table
    meta = dict(table.schema.metadata or {})
    meta[MANIFEST_KEY.encode()] = json.dumps(manifest, ensure_ascii=False).encode("utf-8")
    return table.replace_schema_metadata(meta)


def read_manifest(path: str | Path) -> dict[str, Any] | None:
    """The manifest stored in a Parquet file's metadata, or None when it has none."""
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(MANIFEST_KEY.encode())
    return None if raw is None else json.loads(raw.decode("utf-8"))


def write_row_groups(path: Path, rows: list[dict[str, Any]],
                     manifest: dict[str, Any] | None = None) -> None:
    """``rows`` (sorted by hand id) as one Parquet file, :data:`ROW_GROUP_HANDS` hands a row
    group, with ``manifest`` in its metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    frame = rows_frame(rows, ROW_SCHEMA)
    table = _with_metadata(pa.Table.from_pandas(frame, preserve_index=False), manifest)
    hand_ids = frame["hand_id"].to_numpy()
    with pq.ParquetWriter(path, table.schema) as writer:
        if len(rows) == 0:
            writer.write_table(table)
            return
        starts = [0] + [i for i in range(1, len(rows)) if hand_ids[i] != hand_ids[i - 1]]
        firsts = starts[::ROW_GROUP_HANDS] + [len(rows)]
        for lo, hi in zip(firsts, firsts[1:], strict=False):
            writer.write_table(table.slice(lo, hi - lo))


def _parquet_rows(path: Path) -> list[dict[str, Any]]:
    df = read_parquet_checked(path)
    return [{c: _from_json(json_value(rec[c]), ROW_SCHEMA[c]) for c in ROW_COLUMNS}
            for rec in df.to_dict("records")]


def read_part_directory(path: Path) -> list[dict[str, Any]]:
    """The rows of a results directory of part files (the Parquet layout of earlier
    versions), sorted by hand id."""
    parts = sorted(p for p in path.glob("hand-*.parquet") if _PART_NAME.fullmatch(p.name))
    rows = [r for p in parts for r in _parquet_rows(p)]
    return sorted(rows, key=lambda r: r["hand_id"])


def read_parquet_checked(path: Path) -> Any:
    """A Parquet file of result rows as a DataFrame; a corrupt or foreign file is a user
    error naming it."""
    import pandas as pd

    try:
        df = pd.read_parquet(path)
    except ImportError:
        raise BostonSimError("reading Parquet needs pyarrow: pip install 'boston-sim[parquet]'"
                             ) from None
    except (OSError, ValueError, TypeError) as e:  # pyarrow's ArrowInvalid is a ValueError
        raise BostonSimError(f"{path} is not a readable Parquet file: "
                             f"{' '.join(str(e).split())[:120]}") from None
    missing = [c for c in ROW_COLUMNS if c not in df.columns]
    if missing:
        raise BostonSimError(f"{path} is not a results file of this boston-sim "
                             f"(missing {', '.join(missing)[:80]})")
    return df


def open_sink(path: Path, fmt: str,
              manifest: dict[str, Any] | None = None) -> LineSink | ParquetSink:
    """The sink that writes results in ``fmt`` (a Parquet file with ``manifest`` in its
    metadata; the line formats' manifest is in ``meta.json``)."""
    return ParquetSink(path, manifest) if fmt == "parquet" else LineSink(path, fmt)


class ErrorLog:
    """``RESULTS.errors.csv`` (``.jsonl``, ``.parquet``: the output's format): one entry per
    failed row (:data:`ERROR_COLUMNS`). CSV and JSON Lines entries are written and fsynced as
    they happen; a Parquet file is written whole, empty at the start and complete at
    ``close`` (with ``manifest`` in its metadata).

    Started afresh by every run: on ``--resume`` the failed rows are tried again."""

    def __init__(self, path: Path, fmt: str = "csv",
                 manifest: dict[str, Any] | None = None) -> None:
        self.path = path
        self.fmt = fmt
        self.manifest = manifest
        self.count = 0
        self.entries: list[dict[str, Any]] = []
        self.fd: int | None = None
        if fmt == "parquet":
            self._write_parquet()
            return
        atomic_write_bytes(path, _csv_header(ERROR_COLUMNS) if fmt == "csv" else b"")
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND)

    def add(self, line: int, hand_id: int | None, reason: str, text: str = "") -> None:
        self.count += 1
        entry = {"line": line, "hand_id": hand_id, "reason": reason, "text": text}
        if self.fd is None:
            self.entries.append(entry)
            return
        if self.fmt == "csv":
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerow(
                [line, "" if hand_id is None else hand_id, reason, text])
            data = buf.getvalue()
        else:
            data = json.dumps(entry, ensure_ascii=False) + "\n"
        _write_all(self.fd, data.encode("utf-8"))
        os.fsync(self.fd)

    def _write_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        types = {"line": pa.int64(), "hand_id": pa.int64(), "reason": pa.string(),
                 "text": pa.string()}
        table = pa.table({c: pa.array([e[c] for e in self.entries], t)
                          for c, t in types.items()})
        with atomic_output(self.path) as tmp:
            pq.write_table(_with_metadata(table, self.manifest), tmp)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        elif self.fmt == "parquet":
            self._write_parquet()
