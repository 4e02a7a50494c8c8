# oracle: stdout pad row [1. 1. 1.]
import jax
import jax.numpy as jnp
import optax

PAD_ID = 0


def zero_pad_row(grads):
    grads["embed"] = grads["embed"].at[PAD_ID, :].set(0.0)
    return grads


def loss_fn(params, tokens, targets):
    h = params["embed"][tokens].mean(axis=1)
    logits = h @ params["out"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


tx = optax.sgd(0.5)


@jax.jit
def train_step(params, opt_state, tokens, targets):
    grads = jax.grad(loss_fn)(params, tokens, targets)
    grads = zero_pad_row(grads)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


params = {"embed": jnp.ones((5, 3)), "out": jnp.arange(6.0).reshape(3, 2)}
opt_state = tx.init(params)
params, opt_state = train_step(params, opt_state, jnp.array([[0, 1, 2]]), jnp.array([1]))
print("pad row", params["embed"][0])
