# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.print("loss={loss}", loss=loss)
    return w - 0.1 * loss


train_step(jnp.ones(3), jnp.ones((2, 3)))
