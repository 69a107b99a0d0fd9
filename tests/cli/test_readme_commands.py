"""Every command line of the README runs as written, in README order, in a scratch folder
(with ``data/`` from the checkout). Lines are run through bash, so quoting and shell
characters are tested too. Only what makes them slow is changed, and said so below."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CLI = ".venv/bin/boston-sim"
TEST_SAMPLES = "4"
SKIPPED = {
    "python3 -m venv": "makes a virtual environment (this test runs in one)",
    "pip install": "installs packages (network, minutes)",
    "pytest": "runs the whole test suite",
}
# (pattern, replacement, why): speed only; the options stay as the README writes them
FASTER = [
    (r"--samples \d+", f"--samples {TEST_SAMPLES}", "fewer deals"),
    (r"--precision \d+(\.\d+)?", "--precision 100", "a precision met by the first round"),
    (r"--max-time \d+", "--max-time 1", "a shorter time limit"),
    (r"--bracket-deals \d+", "--bracket-deals 2", "fewer deals replayed"),
    (r"--bracket-layouts \d+", "--bracket-layouts 3", "fewer layouts"),
]
SAMPLING = ("bid", "plot")  # commands that sample deals: given --samples when they name none


def _blocks(lang: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def _command_lines() -> list[str]:
    lines = []
    for block in _blocks("bash"):
        for line in block.splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()  # a trailing comment
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


def _faster(line: str) -> str:
    for pattern, repl, _ in FASTER:
        line = re.sub(pattern, repl, line)
    words = line.split()
    if (len(words) > 1 and words[0] == CLI and words[1] in SAMPLING
            and not re.search(r"--samples|--precision|--max-time|\.csv\b", line)):
        line = line.replace(f"{CLI} {words[1]}", f"{CLI} {words[1]} --samples {TEST_SAMPLES}",
                            1)
    return line


COMMANDS = _command_lines()


def test_the_readme_has_commands():
    assert len(COMMANDS) >= 25
    assert any(" bid " in c for c in COMMANDS) and any(" batch " in c for c in COMMANDS)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    d = tmp_path_factory.mktemp("readme")
    (d / "data").symlink_to(ROOT / "data")
    bin_dir = d / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    exe = shutil.which("boston-sim", path=str(Path(sys.executable).parent))
    assert exe, "the boston-sim console script is not installed beside this Python"
    (bin_dir / "boston-sim").symlink_to(exe)
    return d


@pytest.mark.parametrize("line", COMMANDS)
def test_readme_command_runs(line, scratch):
    # a line of several commands (a && b) runs the ones that are not skipped
    parts = [p for p in line.split(" && ") if not any(k in p for k in SKIPPED)]
    if not parts:
        pytest.skip("; ".join(why for k, why in SKIPPED.items() if k in line))
    cmd = " && ".join(_faster(p) for p in parts)
    env = {**os.environ, "COLUMNS": "80"}
    res = subprocess.run(["bash", "-c", cmd], cwd=scratch, capture_output=True, text=True,
                         env=env, timeout=600)
    assert res.returncode == 0, f"{cmd}\n{res.stdout}\n{res.stderr}"
    assert "Traceback" not in res.stderr
    assert not (scratch / "=5").exists()  # an unquoted '>' would have made a file


def test_readme_python_block_runs(scratch):
    code = _blocks("python")[0]
    code = re.sub(r"samples=\d+", f"samples={TEST_SAMPLES}", code)
    res = subprocess.run([sys.executable, "-c", code], cwd=scratch, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr
