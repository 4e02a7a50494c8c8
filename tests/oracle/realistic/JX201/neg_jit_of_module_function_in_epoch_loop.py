# oracle: stdout traces after 3 and 6 epochs: 1 1
import jax
import jax.numpy as jnp

traces = []


def eval_step(params, x, labels):
    traces.append(1)
    logits = x @ params
    return jnp.mean(jnp.argmax(logits, -1) == labels)


def train_epoch(params, batches):
    for x, labels in batches:
        params = params + 0.01 * x.T @ jax.nn.one_hot(labels, 3)
    return params


params = jnp.zeros((8, 3))
batches = [(jnp.ones((16, 8)), jnp.zeros(16, jnp.int32))] * 2
counts = []
for epoch in range(6):
    params = train_epoch(params, batches)
    accuracy = jax.jit(eval_step)(params, *batches[0])
    counts.append(len(traces))
print("traces after 3 and 6 epochs:", counts[2], counts[5])
