# oracle: stdout gradient has NaN: False
import jax
import jax.numpy as jnp


def masked_mean(values, mask):
    total = jnp.sum(values * mask)
    count = jnp.sum(mask)
    return jnp.where(count > 0, total / jnp.maximum(count, 1.0), 0.0)


def loss_fn(w, x, y, mask):
    return masked_mean((x * w - y) ** 2, mask)


grads = jax.grad(loss_fn)(jnp.ones(4), jnp.arange(4.0), jnp.ones(4), jnp.zeros(4))
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
