# oracle: raises ImportError: cannot import name 'ClosedJaxpr' from 'jax.core'
import jax
from jax.core import ClosedJaxpr, ShapedArray  # error: JX712


def is_closed(jaxpr):
    return isinstance(jaxpr, ClosedJaxpr)


print(is_closed(jax.make_jaxpr(lambda x: x + 1)(1.0)))
