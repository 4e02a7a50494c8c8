# oracle: raises KeyReuseError: Previously-consumed key
import jax

jax.config.update("jax_debug_key_reuse", True)


def init_layers(key, n):
    return [jax.random.normal(k, (2, 2)) for k in jax.random.split(key, n)]


def init(key):
    layers = init_layers(key, 3)
    head = jax.random.normal(key, (2,))  # error: JX602
    return layers, head


init(jax.random.key(0))
