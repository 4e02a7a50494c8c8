# oracle: stdout traces after 3 epochs: 3
import jax
import jax.numpy as jnp
import optax

traces = []


def make_train_step(optimizer):
    def train_step(params, opt_state, x, y):
        traces.append(1)
        loss, grads = jax.value_and_grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
        updates, opt_state = optimizer.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(train_step)  # error: JX205


def run(num_epochs, batches):
    optimizer = optax.sgd(0.1)
    params = jnp.zeros((4, 1))
    opt_state = optimizer.init(params)
    for _ in range(num_epochs):
        step = make_train_step(optimizer)
        for x, y in batches:
            params, opt_state, loss = step(params, opt_state, x, y)
    return params


run(3, [(jnp.ones((8, 4)), jnp.ones((8, 1)))])
print("traces after 3 epochs:", len(traces))
