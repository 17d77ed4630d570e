"""The logistic pieces every square reader shares: the sigmoid, and the regression that
refits a reader's linear heads on a board's own squares (``vision.reader``), pulled toward
the heads it starts from so that a few dozen squares move them only as far as they show."""

from __future__ import annotations

import numpy as np


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function, clipped so that a saturated logit gives 0 or 1, not a warning."""
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(x, -60, 60)))
    return out


def ridge_logistic(x: np.ndarray, y: np.ndarray, prior: np.ndarray, strength: float,
                   offset: np.ndarray | None = None, iterations: int = 25,
                   weights: np.ndarray | None = None) -> np.ndarray:
    """Weights (D + 1, bias last) of a logistic regression of ``y`` on ``x`` pulled toward
    ``prior``: Newton steps on sum log-loss + strength / 2 * |w - prior|^2 (the bias is
    pulled too, more weakly). ``offset``: fixed logits added to each sample; ``weights``:
    each sample's share of the log-loss (a class seen rarely can weigh as much as a common one).
    """
    n, d = x.shape
    xb = np.concatenate([x, np.ones((n, 1))], 1)
    off = np.zeros(n) if offset is None else offset
    w_n = np.ones(n) if weights is None else weights
    pull = np.full(d + 1, strength)
    pull[-1] = strength * 0.1

    def objective(w: np.ndarray) -> float:
        z = xb @ w + off
        return float(w_n @ (np.logaddexp(0, z) - y * z) + 0.5 * pull @ (w - prior) ** 2)

    w = prior.astype(np.float64).copy()
    current = objective(w)
    for _ in range(iterations):
        p = sigmoid(xb @ w + off)
        grad = xb.T @ (w_n * (p - y)) + pull * (w - prior)
        step = newton_step(xb, w_n * p * (1 - p), pull + 1e-6, grad)
        for _ in range(20):  # halve a step that does not lower the objective (saturation)
            trial = objective(w - step)
            if trial <= current:
                break
            step = step / 2
        else:
            break
        w, gain, current = w - step, current - trial, trial
        if gain < 1e-7:
            break
    return w


def newton_step(xb: np.ndarray, curvature: np.ndarray, pull: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """``H^-1 grad`` for the Hessian ``H = xb^T diag(curvature) xb + diag(pull)`` of (N, D)
    samples. Where the samples are fewer than the weights (a board's own squares: 16 to
    96 of them against 136 weights), solved in the space of the samples by the Woodbury
    identity, which is exact: an N x N system instead of a D x D one, a few times cheaper
    and small enough that no thread pool is woken for it."""
    n, d = xb.shape
    if n >= d:
        step: np.ndarray = np.linalg.solve((xb * curvature[:, None]).T @ xb + np.diag(pull), grad)
        return step
    a = xb * np.sqrt(curvature)[:, None]
    scaled = grad / pull
    inner = np.eye(n) + (a / pull) @ a.T
    step = scaled - (a.T @ np.linalg.solve(inner, a @ scaled)) / pull
    return step
