# oracle: stdout traces after 3 and 6 steps: 1 1
import equinox as eqx
import jax
import jax.numpy as jnp

traces = []


class EMA(eqx.Module):
    shadow: jax.Array
    num_updates: jax.Array
    decay: float = 0.99

    def update(self, params):
        decay = jnp.minimum(self.decay, (1 + self.num_updates) / (10 + self.num_updates))
        shadow = decay * self.shadow + (1 - decay) * params
        return EMA(shadow, self.num_updates + 1, self.decay)


@eqx.filter_jit
def ema_step(ema, params):
    traces.append(1)
    return ema.update(params)


params = jnp.ones(16)
ema = EMA(jnp.zeros(16), jnp.array(0))
counts = []
for step in range(6):
    ema = ema_step(ema, params * step)
    counts.append(len(traces))
print("traces after 3 and 6 steps:", counts[2], counts[5])
