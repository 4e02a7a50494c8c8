# oracle: stdout JitTracer(float32[3])
import jax
import jax.numpy as jnp


@jax.jit
def double(x):
    print(x)  # error: JX106
    return x * 2.0


double(jnp.arange(3.0))
