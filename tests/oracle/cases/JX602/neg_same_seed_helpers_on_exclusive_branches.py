# oracle: stdout initialised: gaussian
import jax


def gaussian_init(shape):
    key = jax.random.PRNGKey(0)
    return jax.random.normal(key, shape)


def uniform_init(shape):
    key = jax.random.PRNGKey(0)
    return jax.random.uniform(key, shape)


def init_weights(shape, kind="gaussian"):
    if kind == "gaussian":
        w = gaussian_init(shape)
    else:
        w = uniform_init(shape)
    return w


w = init_weights((4, 4))
print("initialised:", "gaussian" if w.min() < 0 else "uniform")
