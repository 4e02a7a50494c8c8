# oracle: raises TypeError: 'Device' object is not callable
import jax.numpy as jnp

arrays = {"a": jnp.zeros(2), "b": jnp.ones(3)}
placement = {}
for name in ("a", "b"):
    value = jnp.zeros(4) + 1.0
    placement[name] = value.device()  # error: JX706
