"""The refit's Newton step solved in the space of the samples where they are fewer than the
weights is the same step as the direct solve (the Woodbury identity is exact)."""

from __future__ import annotations

import numpy as np
import pytest

from makhos.vision.logistic import newton_step


@pytest.mark.parametrize("samples", [8, 16, 96, 300])
def test_the_newton_step_is_the_direct_solve(samples: int) -> None:
    rng = np.random.default_rng(samples)
    xb = rng.normal(size=(samples, 136))
    curvature = rng.uniform(0.0, 0.25, samples)
    curvature[:2] = 0.0  # saturated samples carry no curvature
    pull = np.full(136, 1.0)
    pull[-1] = 0.1
    grad = rng.normal(size=136)
    direct = np.linalg.solve((xb * curvature[:, None]).T @ xb + np.diag(pull), grad)
    assert np.allclose(newton_step(xb, curvature, pull, grad), direct, rtol=1e-9, atol=1e-9)
