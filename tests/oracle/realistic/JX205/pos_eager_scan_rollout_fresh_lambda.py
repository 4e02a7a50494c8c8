# oracle: stdout compiles after 3 and 6 steps: 3 6
import jax
import jax.numpy as jnp
from jax import lax

compiles = []
jax.monitoring.register_event_duration_secs_listener(
    lambda event, duration, **kw: compiles.append(event) if event == "/jax/core/compile/backend_compile_duration" else None
)


def rollout(policy, obs, horizon=16):
    def step(carry, _):
        action = jnp.tanh(carry @ policy)
        next_obs = 0.9 * carry + 0.1 * action
        return next_obs, jnp.sum(next_obs**2)

    _, rewards = lax.scan(step, obs, None, length=horizon)  # error: JX205
    return jnp.sum(rewards)


policy = jnp.eye(4) * 0.5
obs = jnp.ones(4)
rollout(policy, obs)
counts = []
for it in range(6):
    start = len(compiles)
    ret = rollout(policy, obs)
    counts.append(len(compiles) - start)
print("compiles after 3 and 6 steps:", sum(counts[:3]), sum(counts))
