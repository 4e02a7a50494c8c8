# oracle: stdout constant in the program: False
import jax
import jax.numpy as jnp


@jax.jit
def rollout(transitions, state):
    def step(carry, t):
        return carry + transitions[t], None

    final, _ = jax.lax.scan(step, state, jnp.arange(4))
    return final


transitions = jax.random.uniform(jax.random.key(0), (512, 1024))
program = rollout.lower(transitions, jnp.zeros(1024)).as_text()
print("constant in the program:", len(program) > 1_000_000)
