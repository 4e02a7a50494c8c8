# oracle: stdout traces after 3 epochs: 1
import functools

import jax
import jax.numpy as jnp

traces = []


def loss(params, x, y, weight_decay):
    traces.append(1)
    return jnp.mean((x @ params - y) ** 2) + weight_decay * jnp.sum(params**2)


@functools.lru_cache(maxsize=None)
def make_grad_fn(weight_decay):
    return jax.jit(jax.grad(functools.partial(loss, weight_decay=weight_decay)))


params = jnp.zeros((4, 1))
for epoch in range(3):
    params = params - 0.1 * make_grad_fn(1e-4)(params, jnp.ones((8, 4)), jnp.ones((8, 1)))
print("traces after 3 epochs:", len(traces))
