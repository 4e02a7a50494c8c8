# oracle: stdout loss
import jax
import jax.numpy as jnp
import optax

PAD_ID = 0


def token_losses(logits, targets):
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets)


def masked_mean(losses, targets):
    valid = (targets != PAD_ID).astype(losses.dtype)
    return (losses * valid).sum() / jnp.maximum(valid.sum(), 1.0)


def loss_fn(params, inputs, targets):
    logits = params["embed"][inputs] @ params["out"]
    return masked_mean(token_losses(logits, targets), targets)


@jax.jit
def train_step(params, inputs, targets):
    loss, grads = jax.value_and_grad(loss_fn)(params, inputs, targets)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


params = {"embed": jnp.ones((6, 3)) * 0.1, "out": jnp.ones((3, 6)) * 0.1}
inputs = jnp.array([[1, 2, 3, 0]])
targets = jnp.array([[2, 3, 0, 0]])
params, loss = train_step(params, inputs, targets)
print("loss", loss)
