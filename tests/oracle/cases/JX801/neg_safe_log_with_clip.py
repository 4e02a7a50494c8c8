# oracle: stdout gradient has NaN: False
import jax
import jax.numpy as jnp


def entropy(probs):
    safe = jnp.clip(probs, 1e-12, 1.0)
    return -jnp.sum(jnp.where(probs > 0, probs * jnp.log(safe), 0.0))


value, grads = jax.value_and_grad(entropy)(jnp.array([0.75, 0.25, 0.0]))
print("entropy:", float(value))
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
