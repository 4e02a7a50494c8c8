# oracle: runs
import jax

jax.config.update("jax_debug_key_reuse", True)


def init_layers(key, n):
    return [jax.random.normal(k, (2, 2)) for k in jax.random.split(key, n)]


def init(key):
    key, layers_key = jax.random.split(key)
    layers = init_layers(layers_key, 3)
    head = jax.random.normal(key, (2,))
    return layers, head


init(jax.random.key(0))
