# oracle: stdout histogram [0. 0. 0.]
import jax
import jax.numpy as jnp

labels = jnp.array([0, 2, 2])


def body(i, hist):
    hist.at[labels[i]].add(1.0)  # error: JX606
    return hist


print("histogram", jax.lax.fori_loop(0, 3, body, jnp.zeros(3)))
