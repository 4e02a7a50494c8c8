# oracle: stdout equations: 3
import jax
import jax.numpy as jnp


@jax.jit
def mlp(x, layers):
    for i in range(len(layers)):
        x = x @ layers[i]
    return x


layers = [jnp.eye(3)] * 3
print("equations:", len(mlp.trace(jnp.ones(3), layers).jaxpr.eqns))
