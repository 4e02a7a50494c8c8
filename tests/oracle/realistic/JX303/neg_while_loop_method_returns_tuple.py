# oracle: stdout root 2.09
import jax
import jax.numpy as jnp
from jax import lax


class NewtonSolver:
    def __init__(self, tol=1e-6, max_iter=20):
        self.tol = tol
        self.max_iter = max_iter

    def f(self, x):
        return x**3 - 2.0 * x - 5.0

    def _keep_going(self, carry):
        x, it = carry
        return (jnp.abs(self.f(x)) > self.tol) & (it < self.max_iter)

    def _newton_update(self, carry):
        x, it = carry
        x = x - self.f(x) / jax.grad(self.f)(x)
        return tuple([x, it + 1])

    def solve(self, x0):
        x, _ = lax.while_loop(self._keep_going, self._newton_update, (x0, 0))
        return x


solver = NewtonSolver()
print("root", jax.jit(solver.solve)(jnp.array(2.0)))
