# oracle: stdout computed in: float64
import jax
import jax.numpy as jnp


class DoublePrecisionSolver:
    def solve(self, matrix, rhs):
        with jax.enable_x64(True):
            a = jnp.asarray(matrix, dtype=jnp.float64)
            b = jnp.asarray(rhs, dtype=jnp.float64)
            return jnp.linalg.solve(a, b)


x = DoublePrecisionSolver().solve([[2.0, 0.0], [0.0, 4.0]], [1.0, 1.0])
print("computed in:", x.dtype)
