# oracle: stdout new row matches mean True
import jax
import jax.numpy as jnp
import numpy as np


def init_params(key, vocab, dim):
    k1, k2 = jax.random.split(key)
    return {"embed": jax.random.normal(k1, (vocab, dim)), "head": jax.random.normal(k2, (dim, vocab))}


def to_host(params):
    return jax.tree.map(lambda a: np.array(a, copy=True), params)


def resize_vocab_row(host_params, token_id):
    embed = host_params["embed"]
    embed[token_id] = embed[:token_id].mean(axis=0)
    return host_params


params = init_params(jax.random.PRNGKey(0), vocab=6, dim=3)
host = to_host(params)
host = resize_vocab_row(host, token_id=5)
params = jax.tree.map(jnp.asarray, host)
print("new row matches mean", bool(jnp.allclose(params["embed"][5], params["embed"][:5].mean(0))))
