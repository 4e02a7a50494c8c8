# oracle: stdout compiles after 4 steps: 1
import jax
import jax.numpy as jnp


def env_step(state, action):
    return state * 0.9 + action


@jax.jit
def novelty(states, count, state):
    distances = jnp.sum((states - state) ** 2, axis=-1)
    seen = jnp.arange(states.shape[0]) < count
    return jnp.min(jnp.where(seen, distances, jnp.inf))


def rollout(start, actions):
    visited = jnp.zeros((len(actions) + 1, start.shape[0])).at[0].set(start)
    bonuses = []
    state = start
    for t, action in enumerate(actions):
        state = env_step(state, action)
        bonuses.append(novelty(visited, t + 1, state))
        visited = visited.at[t + 1].set(state)
    return visited, bonuses


visited, bonuses = rollout(jnp.zeros(3), jnp.ones((4, 3)))
print("compiles after 4 steps:", novelty._cache_size())
