# oracle: raises TracerIntegerConversionError: The __index__() method was called on traced array
import jax
import jax.numpy as jnp


def inner_adapt(params, x, y, num_inner_steps, inner_lr):
    for _ in range(num_inner_steps):  # error: JX104
        grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
        params = params - inner_lr * grads
    return params


def meta_loss(params, task, num_inner_steps):
    adapted = inner_adapt(params, task["x_support"], task["y_support"], num_inner_steps, 0.1)
    return jnp.mean((task["x_query"] @ adapted - task["y_query"]) ** 2)


@jax.jit
def meta_step(params, task, num_inner_steps):
    loss, grads = jax.value_and_grad(meta_loss)(params, task, num_inner_steps)
    return params - 0.01 * grads, loss


task = {
    "x_support": jnp.ones((4, 2)),
    "y_support": jnp.ones(4),
    "x_query": jnp.ones((4, 2)),
    "y_query": jnp.zeros(4),
}
params, loss = meta_step(jnp.zeros(2), task, 3)
print(loss)
