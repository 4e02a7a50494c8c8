# oracle: stdout device time below a tenth of the compute: True
from time import perf_counter

import jax
import jax.numpy as jnp


@jax.jit
def generate(state):
    return state @ state @ state


state = jnp.ones((1500, 1500))
generate(state).block_until_ready()

computes = []
for _ in range(3):
    start = perf_counter()
    generate(state).block_until_ready()
    computes.append(perf_counter() - start)

device_times = []
for _ in range(3):
    new_state = generate(state)
    submit_done = perf_counter()
    pending = new_state
    device_time = perf_counter() - submit_done  # error: JX605
    device_times.append(device_time)
    pending.block_until_ready()
print("device time below a tenth of the compute:", min(device_times) < min(computes) / 10)
