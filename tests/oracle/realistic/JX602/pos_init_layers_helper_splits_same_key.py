# oracle: stdout same weights: True
import jax
import jax.numpy as jnp


def init_linear(key, n_in, n_out):
    w_key, b_key = jax.random.split(key)
    return {"w": jax.random.normal(w_key, (n_in, n_out)) / n_in**0.5, "b": jnp.zeros(n_out)}


def init_mlp(key, width):
    encoder = init_linear(key, width, width)
    decoder = init_linear(key, width, width)  # error: JX602
    return {"encoder": encoder, "decoder": decoder}


params = init_mlp(jax.random.PRNGKey(0), 4)
print("same weights:", bool(jnp.all(params["encoder"]["w"] == params["decoder"]["w"])))
