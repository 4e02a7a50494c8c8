# oracle: stdout all equal: True
import jax
import jax.numpy as jnp


def random_walk(n):
    def body(i, path):
        step = jax.random.normal(jax.random.key(7), ())  # error: JX602
        return path.at[i].set(step)

    return jax.lax.fori_loop(0, n, body, jnp.zeros(n))


path = random_walk(6)
print("all equal:", bool(jnp.all(path == path[0])))
