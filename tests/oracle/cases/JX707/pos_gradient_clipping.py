# oracle: raises TypeError: clip() got an unexpected keyword argument
import jax
import jax.numpy as jnp

CLIP = {"low": -1.0, "high": 1.0}


def clip_grads(grads):
    return jax.tree.map(lambda g: jnp.clip(g, a_min=CLIP["low"], a_max=CLIP["high"]), grads)  # error: JX707


print(clip_grads({"w": jnp.array([-3.0, 0.5, 4.0])}))
