# oracle: stdout solution
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class SolverState(NamedTuple):
    x: jax.Array
    residual: jax.Array
    it: jax.Array


class GradientDescentSolver:
    def __init__(self, A, b, step_size=0.1, tol=1e-4, max_iter=50):
        self.A, self.b = A, b
        self.step_size, self.tol, self.max_iter = step_size, tol, max_iter

    def _cond(self, state):
        return (state.residual > self.tol) & (state.it < self.max_iter)

    def _body(self, state):
        r = self.A @ state.x - self.b
        converged = jnp.linalg.norm(r) < self.tol
        update = self.step_size * (self.A.T @ r)
        x = jnp.where(converged, state.x, state.x - update)
        if self.max_iter > 0 and not isinstance(self.tol, jax.Array):
            x = x.astype(state.x.dtype)
        return SolverState(x, jnp.linalg.norm(r), state.it + 1)

    def solve(self, x0):
        init = SolverState(x0, jnp.array(jnp.inf), jnp.array(0))
        return lax.while_loop(self._cond, self._body, init)


solver = GradientDescentSolver(jnp.eye(3) * 2.0, jnp.ones(3))
result = jax.jit(solver.solve)(jnp.zeros(3))
print("solution", result.x)
