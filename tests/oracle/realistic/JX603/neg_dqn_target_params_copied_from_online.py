# oracle: stdout target unchanged: True
import jax
import jax.numpy as jnp


def q_values(params, obs):
    return obs @ params["w"]


def td_step(online, target, obs, actions, rewards, next_obs, gamma=0.99):
    def loss(p):
        q = jnp.take_along_axis(q_values(p, obs), actions[:, None], axis=1)[:, 0]
        bootstrap = rewards + gamma * q_values(target, next_obs).max(axis=1)
        return jnp.mean((q - bootstrap) ** 2)

    grads = jax.grad(loss)(online)
    return jax.tree.map(lambda p, g: p - 1e-3 * g, online, grads)


td_step = jax.jit(td_step, donate_argnums=0)
online_params = {"w": jnp.ones((4, 2))}
target_params = jax.tree.map(jnp.copy, online_params)
obs = jnp.ones((8, 4))
actions = jnp.zeros(8, dtype=jnp.int32)
online_params = td_step(online_params, target_params, obs, actions, jnp.ones(8), obs)
print("target unchanged:", bool(jnp.all(target_params["w"] == 1.0)))
