"""Every setting that decides an analysis, in one frozen object.

The CLI, the Python API (:func:`boston_sim.analysis.analyze`) and the batch reader build an
:class:`AnalysisSettings` once; a batch job carries it to its worker, and a resumed batch
compares the stored one with the new one. ``threads`` is the only field that does not decide
the numbers. Importing this module is cheap (no numba, numpy or pandas): the CLI uses it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .config import (
    BRACKET_DEALS,
    BRACKET_LAYOUTS,
    CONTROL_VARIATES,
    DEFAULT_PARTNER,
    DEFAULT_RULES,
    DEFAULT_SEAT,
    ENV_PROBLEMS,
    FAIL_COUNT_RATE,
    MAKE_COUNT_RATE,
    MAX_SAMPLES,
    MISERE_COUNT_RATE,
    MISERE_NODE_BUDGET,
)
from .errors import BostonSimError, EnvironmentSettingError

Pairs = tuple[tuple[str, Any], ...]


def check_environment() -> None:
    """Raise :class:`~boston_sim.errors.EnvironmentSettingError` for the first malformed
    ``BOSTON_SIM_*`` override (:data:`~boston_sim.config.ENV_PROBLEMS`)."""
    if ENV_PROBLEMS:
        raise EnvironmentSettingError(ENV_PROBLEMS[0])


# Fields that do not change any number of the result.
_NOT_RESULT_FIELDS = ("threads",)


def _pairs(value: Mapping[str, Any] | Iterable[tuple[str, Any]] | None) -> Pairs:
    """A mapping as a tuple of (key, value) pairs in the caller's order: hashable, picklable."""
    if value is None:
        return ()
    items = value.items() if isinstance(value, Mapping) else value
    try:
        return tuple((str(k), v) for k, v in items)
    except (TypeError, ValueError):
        raise SettingsError(f"expected a mapping of name to value, got {type(value).__name__}"
                            ) from None


def _strings(value: Iterable[Any] | None) -> tuple[Any, ...]:
    if value is None:
        return ()
    if isinstance(value, str):  # one card or constraint, not its characters
        return (value,)
    if not isinstance(value, Iterable):
        raise SettingsError(f"expected a list, got {type(value).__name__}")
    return tuple(value)


@dataclass(frozen=True)
class AnalysisSettings:
    """What to analyse a hand under; a hand and these settings give one answer.

    ``rules``: rule-set id, path to a .toml, or a loaded ``RuleSet``. ``seat``: the declarer's
    playing-order seat (eldest, second, third, dealer). ``options``: rule options
    ``{name: value}`` (``preference`` / ``senior`` / ``junior`` are taken as context when the
    rule set has no option of that name). ``samples``: a fixed number of deals (default:
    rounds that stop when the answer is settled); ``precision``: instead, sample until the SE
    of the recommended bid's net EV is below this many counters, at most ``max_samples``
    deals. ``seed``: same seed, same numbers (whatever ``threads``). ``known``: cards known to
    lie with a seat (``"SA@dealer"``); ``constraints``: conditions on other seats
    (``"second:S>=5"``); ``turnup``: the turned-up card (Solo Whist, Russian Boston).
    ``partner``: the partner's seat in pair contracts (opposite, left, right, or average:
    each deal draws one of the three). ``context``: ``preference`` (classic
    Boston), ``senior`` / ``junior`` (Russian). ``risk_threshold``: ``p_loss_gt`` is
    P(net < -threshold). ``misere_tricks``: ``"bool"`` settles misères by the yes/no search,
    ``"min"`` counts the declarer's fewest tricks (slower). ``max_time``: seconds after
    which no new batch of deals starts (the numbers then depend on the machine's speed).
    ``fail_count_rate``: in a trick search whose deals mostly fail its lowest target, the
    share of the failed deals past its first few whose trick count is searched (the others
    only answered "fewer than the lowest target"); 1 counts them all.
    ``make_count_rate``: once a trick search's only open row is its lowest rung's, as the
    best bid whose P(make) is still loose, the share of its later makes whose trick count is
    searched; 1 counts them all.
    ``misere_count_rate``: the share of the misère searches past ``misere_node_budget``
    expanded nodes that go on, and of those the share that goes on past each further tier
    (the others enter at the counted deals' mean); 1 searches every one to the end.
    ``control_variates``: adjust every row's estimates by the regression on the deal's
    trump split, whose exact law is known (:mod:`boston_sim.analysis.control`): the same
    SEs from fewer deals; False for the plain means (and no such adjustment is made under
    ``constraints``).
    ``bracket``: also replay the contending rungs blind-lead and single-dummy
    (:mod:`boston_sim.analysis.bracket`) on their first ``bracket_deals`` deals, a
    single-dummy seat drawing ``bracket_layouts`` layouts per decision.
    ``threads``: solver threads (None: all cores).
    """

    rules: Any = DEFAULT_RULES
    seat: str | int = DEFAULT_SEAT
    options: Pairs = ()
    samples: int | None = None
    precision: float | None = None
    max_samples: int = MAX_SAMPLES
    seed: int = 0
    known: tuple[Any, ...] = ()
    constraints: tuple[Any, ...] = ()
    turnup: str | None = None
    partner: str = DEFAULT_PARTNER
    context: Pairs = ()
    risk_threshold: float = 0.0
    misere_tricks: str = "bool"
    max_time: float | None = None
    fail_count_rate: float = FAIL_COUNT_RATE
    make_count_rate: float = MAKE_COUNT_RATE
    misere_count_rate: float = MISERE_COUNT_RATE
    misere_node_budget: int = MISERE_NODE_BUDGET
    control_variates: bool = CONTROL_VARIATES
    bracket: bool = False
    bracket_deals: int = BRACKET_DEALS
    bracket_layouts: int = BRACKET_LAYOUTS
    threads: int | None = None

    def __post_init__(self) -> None:
        check_environment()  # a malformed BOSTON_SIM_* override would change what runs
        # callers pass dicts and lists; the object keeps tuples so that it stays immutable
        object.__setattr__(self, "options", _pairs(self.options))
        object.__setattr__(self, "context", _pairs(self.context))
        object.__setattr__(self, "known", _strings(self.known))
        object.__setattr__(self, "constraints", _strings(self.constraints))
        if isinstance(self.seed, int) and self.seed < 0:
            from .errors import SamplingError

            raise SamplingError(f"the seed (--seed) must be a whole number >= 0, not {self.seed}")
        from .limits import check_settings_numbers  # every number in its documented range

        for name, whole in check_settings_numbers(self).items():
            object.__setattr__(self, name, whole)  # 20.0, numpy numbers: plain ints, bools

    @property
    def option_map(self) -> dict[str, Any]:
        """The rule options as a fresh dict."""
        return dict(self.options)

    @property
    def context_map(self) -> dict[str, Any]:
        """The context as a fresh dict."""
        return dict(self.context)

    @property
    def rules_id(self) -> str:
        """The rule set's id (a loaded RuleSet) or the name or path as given."""
        return str(getattr(self.rules, "id", self.rules))

    def replace(self, **changes: Any) -> AnalysisSettings:
        """A copy with some fields changed (an unknown name raises :class:`SettingsError`,
        a ``TypeError`` and ``ValueError`` both)."""
        unknown = sorted(set(changes) - _FIELD_NAMES)
        if unknown:
            raise SettingsError(f"unknown analysis setting {', '.join(unknown)} (settings: "
                                f"{', '.join(sorted(_FIELD_NAMES))})")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every field as plain JSON values (mappings as dicts, sequences as lists)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name in ("options", "context"):
                v = {k: x for k, x in v}
            elif f.name in ("known", "constraints"):
                v = [str(x) for x in v]
            elif f.name == "rules":
                v = self.rules_id
            out[f.name] = v
        return out

    def result_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` without the fields that do not decide the numbers (threads):
        what a resumed batch must match."""
        d = self.to_dict()
        for k in _NOT_RESULT_FIELDS:
            d.pop(k)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AnalysisSettings:
        """The inverse of :meth:`to_dict`; missing fields take their defaults, unknown ones
        raise TypeError."""
        return cls(**dict(data))

    @classmethod
    def build(cls, base: AnalysisSettings | None = None, **overrides: Any) -> AnalysisSettings:
        """``base`` (default: all defaults) with ``overrides``; ``None`` overrides of fields
        whose default is not None are ignored, so callers can pass optional arguments
        through unchanged."""
        if base is not None and not isinstance(base, AnalysisSettings):
            raise SettingsError(f"settings must be an AnalysisSettings, got {type(base).__name__}")
        base = base or cls()
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}
        changes = {k: v for k, v in overrides.items()
                   if not (v is None and k in defaults and defaults[k] is not None)}
        return base.replace(**changes) if changes else base


_FIELD_NAMES = frozenset(f.name for f in dataclasses.fields(AnalysisSettings))


class SettingsError(BostonSimError, TypeError):
    """A keyword that names no analysis setting, or a value of the wrong type."""
