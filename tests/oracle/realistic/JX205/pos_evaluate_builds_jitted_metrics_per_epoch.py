# oracle: stdout traces after 3 and 6 epochs: 3 6
import jax
import jax.numpy as jnp

traces = []


def evaluate(params, val_batches):
    @jax.jit  # error: JX205
    def metrics(params, x, labels):
        traces.append(1)
        logits = x @ params
        loss = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1))
        return loss, jnp.mean(jnp.argmax(logits, -1) == labels)

    results = [metrics(params, x, labels) for x, labels in val_batches]
    return sum(float(loss) for loss, _ in results) / len(results)


params = jnp.zeros((8, 3))
val_batches = [(jnp.ones((16, 8)), jnp.zeros(16, jnp.int32))] * 3
counts = []
for epoch in range(6):
    params = params + 0.01
    val_loss = evaluate(params, val_batches)
    counts.append(len(traces))
print("traces after 3 and 6 epochs:", counts[2], counts[5])
