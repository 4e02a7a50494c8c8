# oracle: stdout compiles after 4 steps: 4
import jax
import jax.numpy as jnp


def env_step(state, action):
    return state * 0.9 + action


@jax.jit
def novelty(states, state):
    return jnp.min(jnp.sum((states - state) ** 2, axis=-1))


def rollout(start, actions):
    visited = start[None]
    bonuses = []
    state = start
    for action in actions:
        state = env_step(state, action)
        bonuses.append(novelty(visited, state))  # error: JX202
        visited = jnp.vstack([visited, state[None]])
    return visited, bonuses


visited, bonuses = rollout(jnp.zeros(3), jnp.ones((4, 3)))
print("compiles after 4 steps:", novelty._cache_size())
