# oracle: stdout power iteration 2
import jax
import jax.numpy as jnp


def normalize(v):
    return v / jnp.linalg.norm(v)


@jax.jit
def power_iteration_body(v, matrix):
    return normalize(matrix @ v)


def top_eigenvalue(matrix, num_iters=3):
    v = jnp.ones(matrix.shape[0])
    for i in range(num_iters):
        v = power_iteration_body(v, matrix)
        print("power iteration", i, "estimate", round(float(v @ matrix @ v), 3))
    return v @ matrix @ v


hessian = jnp.array([[2.0, 0.5], [0.5, 1.0]])
top_eigenvalue(hessian)
