"""The variance that choosing a rung's trump adds to its chosen row.

A rung's trump is chosen on each half of the deals and scored on the other
(:func:`~.statistics.cross_fitted`). The row's SEs from its pooled terms describe its spread
for the choices made; across runs the choices themselves vary where a trump's half-sample
mean can overtake another's, and the row then moves by the gap between the two trumps' values.
That part is ``Var(f_c) / FOLDS`` for each field ``f`` (the halves choose independently, each
half's choice ``c`` scored on deals it did not see): here ``c`` is drawn from the normal law
of the candidates' half-sample means (their means and covariance from their per-deal terms,
the deals they share paired), with a seeded stream, so a seed fixes the SEs.
"""

from __future__ import annotations

import functools

import numpy as np

CHOICE_DRAWS = 2000  # draws of the half-sample means that estimate each candidate's chance
CHOICE_SEED = 0x43484F53  # ... from a stream of their own: the same data, the same SEs
CLEAR_Z = 5.0  # a candidate this many SEs of its gap behind the leader is never chosen


def choice_variance(terms: list[np.ndarray], values: dict[str, np.ndarray],
                    folds: int) -> dict[str, float]:
    """Per field of ``values`` (one value per candidate), the variance the choice adds to the
    chosen row: ``Var(f_c) / folds``, with ``c`` the candidate whose half-sample mean of
    ``terms`` (per-deal terms of the key that chooses, each a prefix of the same deals) is
    the greatest, the first one on a tie. 0 for a field where a candidate that may be chosen
    has no value, and for every field when some terms are too few to have a spread or no
    candidate comes within :data:`CLEAR_Z` SEs of the leader."""
    k = len(terms)
    zero = dict.fromkeys(values, 0.0)
    if k < 2 or min(len(y) for y in terms) < 2:
        return zero
    mean = np.array([float(y.mean()) for y in terms])
    cov = _half_covariance(terms, folds)
    if not np.isfinite(cov).all():
        return zero
    top = int(np.argmax(mean))
    gap_var = cov.diagonal() + cov[top, top] - 2 * cov[:, top]
    close = (mean[top] - mean) <= CLEAR_Z * np.sqrt(np.clip(gap_var, 0.0, None))
    close[top] = False
    if not close.any():
        return zero
    lam, u = np.linalg.eigh(cov)
    root = u * np.sqrt(np.clip(lam, 0.0, None))
    draws = mean + _normals(k) @ root.T
    p = np.bincount(np.argmax(draws, axis=1), minlength=k) / CHOICE_DRAWS
    out = {}
    live = p > 0
    for name, v in values.items():
        if np.isnan(v[live]).any():
            out[name] = 0.0
            continue
        first = float(p[live] @ v[live])
        out[name] = max(float(p[live] @ v[live] ** 2) - first * first, 0.0) / folds
    return out


@functools.cache
def _normals(k: int) -> np.ndarray:
    """The standard normal draws for ``k`` candidates: the same on every call."""
    return np.random.default_rng(CHOICE_SEED).standard_normal((CHOICE_DRAWS, k))


def _half_covariance(terms: list[np.ndarray], folds: int) -> np.ndarray:
    """The covariance of the candidates' half-sample means, from their terms over prefixes
    of the same deals: a half holds ``1 / folds`` of each one's deals and of those they share."""
    n = np.array([len(y) for y in terms])
    if (n == n[0]).all():
        return folds * np.cov(np.stack(terms)) / n[0]
    k = len(terms)
    cov = np.empty((k, k))
    for i in range(k):
        for j in range(i, k):
            m = min(n[i], n[j])
            x, y = terms[i][:m] - terms[i][:m].mean(), terms[j][:m] - terms[j][:m].mean()
            cov[i, j] = cov[j, i] = folds * float(x @ y) / (m - 1) * m / (n[i] * n[j])
    return cov
