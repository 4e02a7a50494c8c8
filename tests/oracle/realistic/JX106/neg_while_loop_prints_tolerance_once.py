# oracle: stdout solving to tol=0.001 with 2 unknowns
import jax
import jax.numpy as jnp
from jax import lax

TOL = 1e-3


def residual(A, x, b):
    return jnp.linalg.norm(A @ x - b)


def not_converged(state, A, b):
    x, it = state
    return (residual(A, x, b) > TOL) & (it < 100)


def jacobi_step(state, A, b):
    x, it = state
    d = jnp.diag(A)
    return (b - (A @ x - d * x)) / d, it + 1


@jax.jit
def solve(A, b):
    print(f"solving to tol={TOL} with {b.shape[0]} unknowns")
    init = (jnp.zeros_like(b), 0)
    x, _ = lax.while_loop(lambda s: not_converged(s, A, b), lambda s: jacobi_step(s, A, b), init)
    return x


solve(jnp.array([[4.0, 1.0], [1.0, 3.0]]), jnp.array([1.0, 2.0]))
