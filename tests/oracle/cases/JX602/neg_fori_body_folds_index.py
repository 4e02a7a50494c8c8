# oracle: stdout all equal: False
import jax
import jax.numpy as jnp


def random_walk(n, key):
    def body(i, path):
        step = jax.random.normal(jax.random.fold_in(key, i), ())
        return path.at[i].set(step)

    return jax.lax.fori_loop(0, n, body, jnp.zeros(n))


path = random_walk(6, jax.random.key(7))
print("all equal:", bool(jnp.all(path == path[0])))
