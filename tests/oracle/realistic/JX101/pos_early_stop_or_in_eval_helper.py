# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import functools

import jax
import jax.numpy as jnp


def should_stop(val_loss, best_loss, patience_left):
    return val_loss < 1e-3 or (val_loss > best_loss and patience_left == 0)  # error: JX101


def evaluate(params, x, y):
    preds = jnp.tanh(x @ params)
    return jnp.mean((preds - y) ** 2)


@functools.partial(jax.jit, static_argnames=("patience_left",))
def eval_step(params, x, y, best_loss, patience_left):
    val_loss = evaluate(params, x, y)
    stop = should_stop(val_loss, best_loss, patience_left)
    return val_loss, stop


params = jnp.full((3,), 0.5)
x = jnp.ones((4, 3))
val_loss, stop = eval_step(params, x, jnp.zeros(4), jnp.array(0.2), patience_left=2)
print(val_loss, stop)
