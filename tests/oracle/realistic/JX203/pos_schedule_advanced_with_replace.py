# oracle: stdout compiles after 3 and 6 steps: 3 6
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Schedule:
    step: int
    warmup: int = 100
    peak_lr: float = 1e-3

    def lr(self):
        return self.peak_lr * min(1.0, (self.step + 1) / self.warmup)


@functools.partial(jax.jit, static_argnames="schedule")
def sgd_step(params, grads, schedule):
    return jax.tree.map(lambda p, g: p - schedule.lr() * g, params, grads)


params = {"w": jnp.ones((4, 4))}
grads = {"w": jnp.full((4, 4), 0.5)}
schedule = Schedule(step=0)
compiles = []
for _ in range(6):
    params = sgd_step(params, grads, schedule=schedule)  # error: JX203
    schedule = dataclasses.replace(schedule, step=schedule.step + 1)
    compiles.append(sgd_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
