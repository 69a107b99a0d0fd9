"""boston-sim: what should I bid with this Boston hand?

The public API is imported lazily so that ``import boston_sim`` (and the CLI's ``--help``)
stays fast: nothing here pulls in numba, pandas or matplotlib until it is used.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# Type checkers read the public names from here; at run time they load lazily (below).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .analysis import Analysis, analyze, dd_table
    from .batch import run_batch
    from .cards import (
        boston_card_transform,
        format_card,
        format_deal,
        format_hand,
        parse_card,
        parse_compass,
        parse_deal,
        parse_hand,
        parse_play_seat,
        parse_strain,
        play_seat_to_compass,
        validate_deal,
    )
    from .double_dummy import solve, solve_target
    from .errors import (
        BostonSimError,
        NotationError,
        RulesError,
        SamplingError,
        SolverInputError,
    )
    from .rules import list_rules, load_rules, misere_partout, score
    from .settings import AnalysisSettings
    from .solver import solve_batch
    from .views import report_text

# public name -> module that defines it
_EXPORTS = {
    # notation (cards.py)
    "parse_hand": "cards",
    "parse_deal": "cards",
    "parse_card": "cards",
    "format_hand": "cards",
    "format_deal": "cards",
    "format_card": "cards",
    "validate_deal": "cards",
    "parse_compass": "cards",
    "parse_play_seat": "cards",
    "parse_strain": "cards",
    "play_seat_to_compass": "cards",
    "boston_card_transform": "cards",
    # user-facing errors (errors.py); all are ValueError subclasses
    "BostonSimError": "errors",
    "NotationError": "errors",
    "RulesError": "errors",
    "SolverInputError": "errors",
    "SamplingError": "errors",
    # rules and scoring (rules.py)
    "load_rules": "rules",
    "list_rules": "rules",
    "score": "rules",
    "misere_partout": "rules",
    # double-dummy solver: one deal asked by declarer and leader=, and the batch kernel
    "solve": "double_dummy",
    "solve_target": "double_dummy",
    "solve_batch": "solver",
    # analysis (analysis/) and the settings it runs under (settings.py)
    "analyze": "analysis",
    "Analysis": "analysis",
    "dd_table": "analysis",
    "AnalysisSettings": "settings",
    # batch
    "run_batch": "batch",
    # the text report of an analysis (also Analysis.report(), which delegates here)
    "report_text": "views",
}

__all__ = [
    "Analysis",
    "AnalysisSettings",
    "BostonSimError",
    "NotationError",
    "RulesError",
    "SamplingError",
    "SolverInputError",
    "__version__",
    "analyze",
    "boston_card_transform",
    "dd_table",
    "format_card",
    "format_deal",
    "format_hand",
    "list_rules",
    "load_rules",
    "misere_partout",
    "parse_card",
    "parse_compass",
    "parse_deal",
    "parse_hand",
    "parse_play_seat",
    "parse_strain",
    "play_seat_to_compass",
    "report_text",
    "run_batch",
    "score",
    "solve",
    "solve_batch",
    "solve_target",
    "validate_deal",
]


def __getattr__(name: str) -> object:
    """Import the defining module on first use of a public name (PEP 562)."""
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'boston_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{mod}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
