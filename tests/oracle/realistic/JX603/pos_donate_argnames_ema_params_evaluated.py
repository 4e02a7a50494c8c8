# oracle: raises RuntimeError: Array has been deleted
import jax
import jax.numpy as jnp


def ema_update(ema, params, decay):
    return jax.tree.map(lambda e, p: decay * e + (1.0 - decay) * p, ema, params)


ema_update = jax.jit(ema_update, donate_argnames=("ema",))


def evaluate(params, x):
    return jnp.mean(jnp.tanh(x @ params["kernel"]))


params = {"kernel": jnp.full((8, 8), 0.5)}
ema_params = {"kernel": jnp.zeros((8, 8))}
x_val = jnp.ones((2, 8))
new_ema = ema_update(ema=ema_params, params=params, decay=0.99)
print("ema score:", evaluate(ema_params, x_val))  # error: JX603
