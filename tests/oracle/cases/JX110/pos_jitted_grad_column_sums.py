# oracle: raises TypeError: Gradient only defined for scalar-output functions. Output had shape: (4,).
import jax
import jax.numpy as jnp


def penalty(weights):
    # Sums each column: one penalty per output unit instead of one number.
    return jnp.sum(weights**2, axis=0)


penalty_grad = jax.jit(jax.grad(penalty))
print(penalty_grad(jnp.ones((3, 4))))  # error: JX110
