# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def loss(w):
    return jnp.sum(w**2)


w = jnp.arange(3.0)
value = float(loss(w))
best = int(jnp.argmax(w))
peak = w.max().item()
as_list = w.tolist()
print(value, best, peak, as_list)
