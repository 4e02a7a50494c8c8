# oracle: stdout entering the step function
import jax
import jax.numpy as jnp

STEP_NAME = "step"


@jax.jit
def step(x):
    print("entering the", STEP_NAME, "function")
    return x + 1.0


step(jnp.arange(3.0))
