# oracle: stdout equations: 1
import jax
import jax.numpy as jnp


@jax.jit
def scaled(x):
    names = []
    for i in range(100):
        names.append(f"layer{i}")
    return x * len(names)


print("equations:", len(scaled.trace(jnp.ones(3)).jaxpr.eqns))
