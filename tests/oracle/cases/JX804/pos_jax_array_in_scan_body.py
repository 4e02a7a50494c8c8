# oracle: stdout constant in the program: True
import jax
import jax.numpy as jnp

TRANSITIONS = jax.random.uniform(jax.random.key(0), (512, 1024))


def step(state, t):
    return state + TRANSITIONS[t], None  # error: JX804


@jax.jit
def rollout(state):
    final, _ = jax.lax.scan(step, state, jnp.arange(4))
    return final


program = rollout.lower(jnp.zeros(1024)).as_text()
print("constant in the program:", len(program) > 1_000_000)
