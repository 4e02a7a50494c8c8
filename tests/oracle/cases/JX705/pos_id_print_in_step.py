# oracle: raises ImportError: cannot import name 'host_callback' from 'jax.experimental'
import jax
import jax.numpy as jnp
from jax.experimental import host_callback as hcb  # error: JX705


@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    hcb.id_print(loss, what="loss")
    return w - 0.1 * jax.grad(lambda w: jnp.mean((x @ w) ** 2))(w)


train_step(jnp.ones(3), jnp.ones((2, 3)))
