"""The CLI shell: --version, --help, start-up imports, and user errors as ``error: ...`` and
exit 2."""

from __future__ import annotations

import importlib.metadata
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from conftest import skip_unless_ci
from helpers import app_raising as _app_raising
from typer.main import get_command
from typer.testing import CliRunner

import boston_sim
from boston_sim.cli import app
from boston_sim.cli.common import echo_json, parse_options, user_errors
from boston_sim.errors import NotationError, RulesError, SamplingError, SolverInputError

runner = CliRunner()
HEAVY = ("numpy", "numba", "pandas", "matplotlib", "scipy", "dask", "pyarrow")


def _commands() -> list[str]:
    return sorted(get_command(app).commands)  # type: ignore[attr-defined]


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"boston-sim {boston_sim.__version__}"
    # the version printed is the version installed (pyproject.toml), not a stale copy
    assert boston_sim.__version__ == importlib.metadata.version("boston-sim")


def test_help_lists_every_registered_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.stdout
    lines = result.stdout.splitlines()
    for name in _commands():
        assert any(line.split()[:1] == [name] for line in lines), (name, result.stdout)


def test_version_is_shown_as_a_flag() -> None:
    result = runner.invoke(app, ["--help"])
    line = next(ln for ln in result.stdout.splitlines() if "--version" in ln)
    assert "bool" not in line.lower() and "Show the version" in line


def test_no_arguments_shows_help() -> None:
    result = runner.invoke(app, [])
    assert "Usage:" in result.output


def test_unknown_command_is_a_usage_error() -> None:
    result = runner.invoke(app, ["no-such-command"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- start-up cost

_PROBE = f"""
import sys
sys.argv = ["boston-sim", *sys.argv[1:]]
from boston_sim.cli import main
try:
    main()
except SystemExit:
    pass
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r}))
sys.stderr.write("HEAVY=" + ",".join(heavy) + "\\n")
"""


def _heavy_modules_after(args: list[str], expect: str = "Usage:") -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("HEAVY=")]
    assert line, proc.stderr
    assert expect in proc.stdout, proc.stderr
    return [m for m in line[-1][len("HEAVY=") :].split(",") if m]


def test_help_imports_nothing_heavy() -> None:
    assert _heavy_modules_after(["--help"]) == []


@pytest.mark.parametrize("command", _commands())
def test_command_help_imports_nothing_heavy(command: str) -> None:
    # heavy imports belong inside command bodies, so every --help stays instant
    assert _heavy_modules_after([command, "--help"]) == []


@pytest.mark.parametrize(("extra", "expect"), [([], "Recommendation:"),
                                              (["--json"], '"recommended"')])
def test_bid_report_does_not_import_pandas(extra: list[str], expect: str) -> None:
    # the table and the JSON are built from plain rows; pandas (about half a second of every
    # run) is imported only for Analysis.table / .rungs, plots and Parquet
    heavy = _heavy_modules_after(["bid", "KQJT9.AK.QJ2.432", "--samples", "2", "--quiet",
                                  *extra], expect=expect)
    assert "numba" in heavy  # the probe saw the solver run
    assert "pandas" not in heavy and "matplotlib" not in heavy


def test_console_script_runs() -> None:
    script = Path(sys.executable).with_name("boston-sim")
    if not script.exists():
        skip_unless_ci("console script not installed beside this interpreter")
    proc = subprocess.run(
        [str(script), "--version"], check=False, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"boston-sim {boston_sim.__version__}"


def test_import_boston_sim_is_light() -> None:
    code = (
        "import sys, boston_sim; "
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.strip() == "[]", out.stderr


# --------------------------------------------------------------------------- user errors


@pytest.mark.parametrize(
    "exc, message",
    [
        (NotationError("duplicate card SA"), "error: duplicate card SA"),
        (RulesError("unknown rule set 'x'"), "error: unknown rule set 'x'"),
        (SolverInputError("card SA is in two hands"), "error: card SA is in two hands"),
        (
            SamplingError("no deal satisfies the constraints"),
            "error: no deal satisfies the constraints",
        ),
        (FileNotFoundError(2, "No such file", "hands.txt"), "error: file not found: hands.txt"),
        (
            IsADirectoryError(21, "Is a directory", "data"),
            "error: cannot open data: Is a directory",
        ),
        (RulesError("two\nlines"), "error: two lines"),
    ],
)
def test_user_errors_become_one_line_and_exit_2(exc: BaseException, message: str) -> None:
    result = runner.invoke(_app_raising(exc), [])
    assert result.exit_code == 2
    assert result.stderr.strip() == message
    assert "Traceback" not in result.output


def test_bugs_are_not_disguised_as_user_errors() -> None:
    result = runner.invoke(_app_raising(KeyError("oops")), [])
    assert result.exit_code == 1
    assert isinstance(result.exception, KeyError)


def test_bad_hand_through_the_real_parser() -> None:
    demo = typer.Typer()

    @demo.command()
    def hand(text: str) -> None:
        from boston_sim.cards import format_hand, parse_hand

        with user_errors():
            typer.echo(format_hand(parse_hand(text)))

    ok = runner.invoke(demo, ["S:AKQ2 H:JT9 D:876 C:543"])
    assert ok.exit_code == 0 and ok.stdout.strip() == "AKQ2.JT9.876.543"
    bad = runner.invoke(demo, ["AKQ2.JT9.876.5432"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: hand 'AKQ2.JT9.876.5432' has 14 cards, expected 13")
    assert len(bad.stderr.strip().splitlines()) == 1


# --------------------------------------------------------------------------- small helpers


def test_parse_options() -> None:
    assert parse_options(["pool=10", " tables = american "]) == {"pool": "10", "tables": "american"}
    assert parse_options(None) == {}
    assert parse_options(["expr=a=b"]) == {"expr": "a=b"}
    with pytest.raises(RulesError, match="key=value"):
        parse_options(["pool"])
    with pytest.raises(RulesError, match="no key"):
        parse_options(["=3"])


def test_echo_json(capsys: pytest.CaptureFixture[str]) -> None:
    echo_json({"net": None, "hand": "♠AKQ2"})
    assert json.loads(capsys.readouterr().out) == {"net": None, "hand": "♠AKQ2"}
    with pytest.raises(ValueError):
        echo_json({"net": math.nan})


def test_ctrl_c_is_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from boston_sim import cli

    def interrupted(**_: object) -> None:  # (main runs the app with standalone_mode=False)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "app", interrupted)
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_closed_pipe_is_quiet() -> None:
    # the reader closes the pipe at once; the writer must not print a traceback
    code = (
        "import sys; sys.argv = ['boston-sim', '--help']\n"
        "import boston_sim.cli as cli\n"
        "def noisy(**_):\n"
        "    for _ in range(100000):\n"
        "        print('x' * 100)\n"
        "cli.app = noisy\n"
        "cli.main()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert proc.returncode == 141
    assert "Traceback" not in err


_WARM_PROBE = """
import sys
from numba.core import event, types
from boston_sim.solver import solve, solve_batch
from boston_sim.cards import parse_deal
import numpy as np
deal = "N:AKQ.J.2. JT.A..32 98.K.A.4 7.Q.K.A5"
batch = np.stack([parse_deal(deal)] * 2)
with event.install_recorder("numba:compile") as rec:
    print(solve(deal, "S", "N", "N"), list(solve_batch(batch, 0, 0, 0b0001)))
# kernels compiled for a literal argument (a separate copy per Python int constant passed)
lit = sorted({e.data["dispatcher"].py_func.__name__ for _, e in rec.buffer
              if e.is_start and "dispatcher" in e.data
              and any(isinstance(a, types.Literal) for a in e.data["args"])})
sys.stderr.write("LITERAL=" + ",".join(lit) + "\\n")
"""


@pytest.mark.slow
def test_solver_starts_from_a_filled_numba_cache(tmp_path: Path) -> None:
    """The second run of the program loads compiled kernels from numba's cache: it must work.

    (Every CLI run after the first is such a run.) Uses a private NUMBA_CACHE_DIR so the
    result does not depend on what other tests compiled before.
    """
    import os

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    runs = [
        subprocess.run(
            [sys.executable, "-c", _WARM_PROBE],
            check=False,
            capture_output=True,
            text=True,
            env=env,
            timeout=900,
        )
        for _ in range(2)
    ]
    assert runs[0].returncode == 0, runs[0].stderr[-500:]
    assert any(tmp_path.rglob("*.nbi")), "nothing was cached"
    # each kernel compiled once, not once more per constant argument (which doubled the
    # first run's compile time): the kernels pass numpy int64 constants, not Python ints
    assert "LITERAL=\n" in runs[0].stderr, runs[0].stderr[-500:]
    assert runs[1].returncode == 0, f"warm start failed with code {runs[1].returncode}"
    assert runs[1].stdout == runs[0].stdout
