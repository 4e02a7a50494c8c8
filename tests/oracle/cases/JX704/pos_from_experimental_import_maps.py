# oracle: raises ImportError: cannot import name 'maps' from 'jax.experimental'
import jax
from jax.experimental import maps  # error: JX704


def run(fn, x):
    return maps.xmap(fn, in_axes=["i"], out_axes=["i"])(x)
