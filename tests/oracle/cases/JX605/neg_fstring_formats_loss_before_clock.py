# oracle: stdout timed at least half the compute: True
from time import perf_counter

import jax
import jax.numpy as jnp


@jax.jit
def evaluate(a):
    return (a @ a @ a).mean()


a = jnp.ones((1500, 1500))
evaluate(a).block_until_ready()

computes = []
for _ in range(3):
    start = perf_counter()
    evaluate(a).block_until_ready()
    computes.append(perf_counter() - start)

timed = []
for epoch in range(3):
    tic = perf_counter()
    test_loss = evaluate(a)
    # `{test_loss}` is formatted (and waited for) before the clock on its right is read.
    line = f"{epoch}: {test_loss} ({(elapsed := perf_counter() - tic):.3f} sec)"
    timed.append(elapsed)
print("timed at least half the compute:", min(timed) > min(computes) / 2)
