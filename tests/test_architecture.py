"""Imports flow one way (docs/ARCHITECTURE.md):

    cli -> views -> batch -> analysis -> (sampler, solver) -> (cards, rules) -> errors

settings, config and progress are foundation modules every layer may use.

Each module's imports are read with ``ast`` (imports inside functions included: a lazy import
is still a dependency). Only modules that exist are checked, so the test holds while the
package is being written.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "boston_sim"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Absolute dotted names a file imports; ``from a import b`` gives ``a`` and ``a.b``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level > 1:
                    base_parts = base_parts[: -(node.level - 1)]
                base = ".".join(base_parts)
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module or ""
            if node.module:
                out.add(mod)
            out.update(f"{mod}.{alias.name}" for alias in node.names)
    return out


MODULES: dict[str, set[str]] = {
    _module_name(p): _imports(p) for p in sorted(PKG.rglob("*.py")) if "__pycache__" not in p.parts
}


def _matching(mod: str, prefix: str) -> set[str]:
    return {n for n in MODULES[mod] if n == prefix or n.startswith(prefix + ".")}


def _modules_in(prefix: str) -> list[str]:
    return [m for m in MODULES if m == prefix or m.startswith(prefix + ".")]


def _internal(mod: str) -> set[str]:
    return {n for n in MODULES[mod] if n.startswith("boston_sim.")}


def test_the_package_is_found() -> None:
    # guards the other tests against silently checking nothing
    assert {"boston_sim", "boston_sim.cards", "boston_sim.errors"} <= set(MODULES)


def test_import_resolution_of_relative_imports() -> None:
    # from cards.py: "from .errors import NotationError"
    assert "boston_sim.errors" in MODULES["boston_sim.cards"]
    assert "boston_sim.errors.NotationError" in MODULES["boston_sim.cards"]


def test_the_checker_sees_typer_in_the_cli() -> None:
    # a positive control: if resolution broke, the negative checks below would pass vacuously
    assert _matching("boston_sim.cli", "typer")
    assert _matching("boston_sim.cli", "boston_sim.cli.rules_cmd")


def test_the_checker_sees_the_solver_modules() -> None:
    # the solver's layering test is parametrised over these: an empty list would skip it
    assert {"boston_sim.solver._search", "boston_sim.solver._driver"} <= set(
        _modules_in("boston_sim.solver"))


def test_errors_and_config_are_leaves() -> None:
    for mod in ("boston_sim.errors", "boston_sim.config", "boston_sim.progress"):
        assert mod in MODULES
        assert _internal(mod) == set(), mod


def test_cards_imports_only_errors() -> None:
    bad = {n for n in _internal("boston_sim.cards") if not n.startswith("boston_sim.errors")}
    assert bad == set()


def test_rules_imports_only_cards_and_errors() -> None:
    mods = _modules_in("boston_sim.rules")
    assert {"boston_sim.rules", "boston_sim.rules.loader"} <= set(mods)
    allowed = ("boston_sim.cards", "boston_sim.errors", "boston_sim.rules")
    for mod in mods:
        bad = {n for n in _internal(mod)
               if not any(n == a or n.startswith(a + ".") for a in allowed)}
        assert bad == set(), (mod, bad)


def test_notation_imports_only_cards_and_errors() -> None:
    allowed = ("boston_sim.cards", "boston_sim.errors")
    bad = {n for n in _internal("boston_sim.pbn")
           if not any(n == a or n.startswith(a + ".") for a in allowed)}
    assert bad == set()


SOLVER_FORBIDDEN = (
    "pandas",
    "matplotlib",
    "typer",
    "rich",
    "boston_sim.analysis",
    "boston_sim.sampler",
    "boston_sim.cli",
    "boston_sim.batch",
    "boston_sim.views",
)


@pytest.mark.parametrize("mod", _modules_in("boston_sim.solver"))
def test_solver_stays_low(mod: str) -> None:
    assert mod in MODULES
    bad = {n for p in SOLVER_FORBIDDEN for n in _matching(mod, p)}
    assert bad == set(), f"{mod} imports {sorted(bad)}"


@pytest.mark.parametrize(
    "mod, forbidden",
    [
        (
            "boston_sim.sampler",
            (
                "boston_sim.analysis",
                "boston_sim.cli",
                "boston_sim.batch",
                "boston_sim.views",
            ),
        ),
        *[(m, ("boston_sim.cli", "boston_sim.batch", "boston_sim.views"))
          for m in _modules_in("boston_sim.analysis")],
        *[(m, ("boston_sim.cli", "boston_sim.views")) for m in _modules_in("boston_sim.batch")],
        *[(m, ("boston_sim.cli",)) for m in _modules_in("boston_sim.views")],
        ("boston_sim.settings", ("boston_sim.analysis", "boston_sim.cli", "boston_sim.batch",
                                 "boston_sim.views", "boston_sim.solver", "boston_sim.sampler")),
    ],
)
def test_middle_layers_do_not_import_upwards(mod: str, forbidden: tuple[str, ...]) -> None:
    assert mod in MODULES
    bad = {n for p in forbidden for n in _matching(mod, p)}
    assert bad == set(), f"{mod} imports {sorted(bad)}"


def test_only_the_cli_imports_typer_or_the_cli() -> None:
    offenders = {
        mod: sorted(_matching(mod, "typer") | _matching(mod, "boston_sim.cli"))
        for mod in MODULES
        if not (mod == "boston_sim.cli" or mod.startswith("boston_sim.cli."))
    }
    assert {m: v for m, v in offenders.items() if v} == {}


def test_package_init_imports_nothing_at_top_level() -> None:
    # boston_sim/__init__.py resolves its public names lazily (PEP 562) so that
    # ``import boston_sim`` and ``boston-sim --help`` stay instant
    tree = ast.parse((PKG / "__init__.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    names = {a.name for n in top for a in n.names}
    assert names <= {"annotations", "importlib"}


def test_ci_runs_the_readme_test_command() -> None:
    """``.ci/run`` runs the README's test command and nothing weaker (issue 2)."""
    root = PKG.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    ci = (root / ".ci" / "run").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```bash")[1:]]
    test_cmds = [b for b in blocks if "pytest" in b]
    assert len(test_cmds) == 1, test_cmds
    cmd = test_cmds[0]
    ci_lines = [ln.strip() for ln in ci.splitlines() if ln.strip() and not ln.startswith("#")]
    assert cmd in ci_lines
    assert "set -euo pipefail" in ci_lines
    # nothing that would weaken the run: no deselection, no tolerated failure
    for weak in ("|| true", "--deselect", " -k ", "--ignore", "-m not", "set +e"):
        assert weak not in ci, weak


def test_public_names_resolve() -> None:
    """Every name ``boston_sim`` exports lazily exists in its module (once that module exists)."""
    import importlib

    import boston_sim

    exports: dict[str, str] = boston_sim._EXPORTS  # type: ignore[attr-defined]
    assert set(boston_sim.__all__) == set(exports) | {"__version__"}
    for name, mod in exports.items():
        path = PKG / f"{mod}.py"
        if not (path.exists() or (PKG / mod / "__init__.py").exists()):
            continue
        module = importlib.import_module(f"boston_sim.{mod}")
        assert hasattr(module, name), f"boston_sim.{mod} has no {name}"
        assert getattr(boston_sim, name) is getattr(module, name)
        assert getattr(module, name).__doc__, f"{name} has no docstring"


def test_every_cached_solver_kernel_is_keyed_by_the_digest_of_the_kernel_sources() -> None:
    """numba's cache of a kernel notices changes to its own file only: every cached solver
    kernel's cache key holds the digest of all the solver's kernel sources (``solver/_jit.py``,
    computed at import), or warm runs would go on with an old compiled search."""
    import importlib

    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    from boston_sim.solver import _jit

    sources = {p.name for p in _jit.kernel_sources()}
    cached = 0
    for mod in _modules_in("boston_sim.solver"):
        module = importlib.import_module(mod)
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and not isinstance(obj._cache, NullCache):
                assert isinstance(obj._cache, _jit.SolverCache), f"{mod}.{name}"
                assert obj.py_func.__module__ != mod or f"{mod.rsplit('.', 1)[1]}.py" in sources
                cached += 1
    assert cached > 50  # the check saw the kernels
    assert _jit.KERNEL_SOURCES_SHA256 == _jit.kernel_sources_digest()


FUNCTION_BODY_BUDGET = 80  # lines of a function's body (its signature not counted)


def _is_kernel(fn: ast.FunctionDef) -> bool:
    return any("jit" in ast.unparse(d) for d in fn.decorator_list)


def test_functions_outside_the_kernels_stay_short() -> None:
    """A function a newcomer reads in one screen: the body (docstring included) of every
    function outside the numba kernels fits the budget; a typer command's parameter list is
    its signature, not its body."""
    long = []
    for path in sorted(PKG.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and not _is_kernel(fn):
                body = fn.end_lineno - fn.body[0].lineno + 1
                if body > FUNCTION_BODY_BUDGET:
                    long.append(f"{path.relative_to(PKG.parent)}:{fn.lineno} {fn.name} ({body})")
    assert long == []


def test_no_module_is_too_long() -> None:
    long = [f"{p.relative_to(PKG.parent)} ({n})" for p in sorted(PKG.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800]
    assert long == []
