"""A batch streams its input: records and jobs are made line by line as they are consumed,
so memory does not grow with the file; the executors take jobs only as workers are free;
an over-long line is refused with its number before the rest of the file is read."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from boston_sim.batch import execute, output_paths, read_jobs, run_batch
from boston_sim.batch.jobs import Job, JobStream
from boston_sim.batch.readers import read_records
from boston_sim.batch.records import HandResult
from boston_sim.errors import BostonSimError, InputFileError
from boston_sim.limits import LINE_MAX
from boston_sim.settings import AnalysisSettings

HANDS = ["AKQJT98.AK.A2.32", "5432.543.543.543", "KQJT9.AK.QJ2.432"]
DEAL = "N:AKQ2.JT9.876.543 JT98.AKQ.AKQ.AKQ 7654.8765.5432.2 3.432.JT9.JT9876"
SMALL, LARGE = 2_000, 20_000  # lines; ten times the file must not mean more memory
PEAK_RATIO_MAX = 2.0


def _line(fmt: str, i: int) -> str:
    hand = HANDS[i % len(HANDS)]
    label = f"row {i} " + "x" * 40
    if fmt == "text":
        return f"{hand} | eldest | {label}\n"
    if fmt == "csv":
        return f"{hand},eldest,{label}\n"
    if fmt == "jsonl":
        return json.dumps({"hand": hand, "seat": "eldest", "label": label}) + "\n"
    return f'[Event "e{i}"]\n[Board "{i}"]\n[Dealer "W"]\n[Deal "{DEAL}"]\n\n'


def _input(tmp_path: Path, fmt: str, n: int) -> Path:
    ext = {"text": "txt", "csv": "csv", "jsonl": "jsonl", "pbn": "pbn"}[fmt]
    f = tmp_path / f"h{n}.{ext}"
    with open(f, "w", encoding="utf-8") as out:
        if fmt == "csv":
            out.write("hand,seat,label\n")
        rows = n // 4 if fmt == "pbn" else n  # a PBN game stands for four hands
        for i in range(rows):
            out.write(_line(fmt, i))
    return f


def _peak(consume) -> int:
    tracemalloc.start()
    try:
        consume()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _drain(it) -> int:
    n = 0
    for _ in it:
        n += 1
    return n


@pytest.mark.parametrize("fmt", ["text", "csv", "jsonl", "pbn"])
def test_the_reader_memory_does_not_grow_with_the_file(tmp_path, fmt):
    small, large = _input(tmp_path, fmt, SMALL), _input(tmp_path, fmt, LARGE)
    _drain(read_records(small, fmt))  # imports and caches are not the file's memory
    peaks = [_peak(lambda f=f: _drain(read_records(f, fmt, digest=hashlib.sha256())))
             for f in (small, large)]
    assert peaks[1] < PEAK_RATIO_MAX * peaks[0], peaks


def test_the_job_stream_memory_does_not_grow_with_the_file(tmp_path):
    small, large = _input(tmp_path, "text", SMALL), _input(tmp_path, "text", LARGE)
    settings = AnalysisSettings(samples=10)
    counts = []

    def consume(f: Path) -> None:
        stream = JobStream(f, settings)
        counts.append((_drain(stream), stream.n_hands))

    consume(small)
    peaks = [_peak(lambda f=f: consume(f)) for f in (small, large)]
    assert peaks[1] < PEAK_RATIO_MAX * peaks[0], peaks
    assert counts[-1] == (LARGE, LARGE)


def test_a_streamed_pass_hashes_the_file_and_matches_the_lists(tmp_path):
    f = _input(tmp_path, "csv", 50)
    stream = JobStream(f, AnalysisSettings(seed=3))
    items = list(stream)
    assert stream.sha256 == hashlib.sha256(f.read_bytes()).hexdigest()
    jobs, bad, n = read_jobs(f, AnalysisSettings(seed=3))
    assert items == jobs + bad and n == stream.n_hands == 50
    assert list(stream) == items  # every pass reads the file again, with the same result


def test_an_over_long_line_is_refused_with_its_number_before_the_rest_is_read(tmp_path):
    fifo = tmp_path / "h.txt"
    os.mkfifo(fifo)
    rest = 4 * 1024 * 1024  # characters after the long line starts; a pipe holds 64 KiB
    seen: dict[str, object] = {}

    def write() -> None:
        try:
            with open(fifo, "w", encoding="utf-8") as w:
                w.write("".join(f"{h}\n" for h in HANDS))
                w.write("x" * rest)
                seen["wrote_all"] = True
        except BrokenPipeError:
            seen["reader_stopped"] = True

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    out = tmp_path / "r.csv"
    with pytest.raises(InputFileError, match=f"line 4 is longer than {LINE_MAX:,}"):
        run_batch(fifo, out, samples=10, workers=1)
    writer.join(timeout=30)
    assert seen == {"reader_stopped": True}
    assert not out.exists() and not output_paths(fifo, out, None).meta.exists()


def test_a_long_line_in_a_big_file_stops_the_read_there(tmp_path):
    f = tmp_path / "h.txt"
    with open(f, "w", encoding="utf-8") as w:
        w.write(f"{HANDS[0]}\n{HANDS[1]}\n")
        w.write("y" * 30_000_000)  # one 30 MB line: never held whole
    errors: list[str] = []

    def read() -> None:
        try:
            _drain(read_records(f, "text"))
        except InputFileError as e:
            errors.append(str(e))

    peak = _peak(read)
    assert len(errors) == 1 and "line 3 is longer than" in errors[0]
    assert peak < 1_000_000, peak


def _endless_jobs(taken: list[int]):
    settings = AnalysisSettings(samples=10)
    for i in itertools.count():
        taken.append(i)
        yield Job(i, i + 1, HANDS[i % len(HANDS)], "", settings)


@pytest.mark.parametrize("workers", [1, 2])
def test_executors_take_jobs_only_as_they_are_needed(workers):
    taken: list[int] = []
    results = execute(_endless_jobs(taken), workers=workers, fn=repr)
    got = list(itertools.islice(results, 5))
    results.close()  # stops the workers
    assert len(got) == 5
    assert len(taken) <= 5 + 4 * workers + 2, len(taken)  # the results + the window in flight


def test_an_input_changed_while_the_batch_runs_is_reported(tmp_path):
    f = tmp_path / "h.txt"
    f.write_text("".join(f"{h}\n" for h in HANDS), encoding="utf-8")

    def edit_then_fail(job: Job) -> HandResult:
        if job.index == 0:
            with open(f, "a", encoding="utf-8") as w:
                w.write(f"{HANDS[0]}\n")
        return HandResult(job.index, job.line, error="not analysed")

    with pytest.raises(BostonSimError, match="changed while the batch ran") as e:
        run_batch(f, tmp_path / "r.csv", samples=10, workers=1, fn=edit_then_fail)
    assert e.value.exit_code == 1  # a failure of the run, not a wrong request
    assert {p.name for p in tmp_path.iterdir()} == {"h.txt"}  # nothing was analysed


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
def test_a_file_that_reports_no_size_is_read_once():
    stream = JobStream("/proc/self/status", input_format="text")  # differs at every read
    first = list(stream)
    assert first and list(stream) == first
