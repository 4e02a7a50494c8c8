# oracle: stdout compiles after 3 and 6 steps: 2 2
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Phase:
    name: str = "warmup"
    peak_lr: float = 1e-3

    def lr(self):
        return self.peak_lr * (0.1 if self.name == "warmup" else 1.0)


@functools.partial(jax.jit, static_argnames="phase")
def sgd_step(params, grads, phase):
    return jax.tree.map(lambda p, g: p - phase.lr() * g, params, grads)


params = {"w": jnp.ones((4, 4))}
grads = {"w": jnp.full((4, 4), 0.5)}
phase = Phase()
compiles = []
for step in range(6):
    phase = dataclasses.replace(phase, name="warmup" if step < 2 else "main")
    params = sgd_step(params, grads, phase=phase)
    compiles.append(sgd_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
