# oracle: stdout metrics ['l2_grads', 'loss']
import jax
import jax.numpy as jnp


def loss_fn(params, x):
    loss = jnp.mean((x @ params) ** 2)
    return loss, {"loss": loss}


def train_step(params, x):
    (loss, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x)
    loss, metrics, grads = jax.lax.pmean((loss, metrics, grads), axis_name="batch")
    metrics["l2_grads"] = jnp.sqrt(jnp.vdot(grads, grads))  # a Python dict, not an array
    return params - 0.1 * grads, metrics


params, metrics = jax.pmap(train_step, axis_name="batch")(jnp.ones((1, 3)), jnp.ones((1, 2, 3)))
print("metrics", sorted(metrics))
