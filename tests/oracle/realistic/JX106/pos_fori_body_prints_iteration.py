# oracle: stdout power iteration JitTracer(
import jax
import jax.numpy as jnp
from jax import lax


def normalize(v):
    return v / jnp.linalg.norm(v)


def power_iteration_body(i, v, matrix):
    v = normalize(matrix @ v)
    print("power iteration", i, "estimate", v @ matrix @ v)  # error: JX106
    return v


def top_eigenvalue(matrix, num_iters=5):
    v0 = jnp.ones(matrix.shape[0])
    v = lax.fori_loop(0, num_iters, lambda i, v: power_iteration_body(i, v, matrix), v0)
    return v @ matrix @ v


hessian = jnp.array([[2.0, 0.5], [0.5, 1.0]])
print(jax.jit(top_eigenvalue)(hessian) > 0)
