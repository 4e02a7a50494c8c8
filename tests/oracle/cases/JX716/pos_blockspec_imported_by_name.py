# oracle: raises TypeError: 'function' object is not iterable
import jax
import jax.numpy as jnp
from jax.experimental.pallas import BlockSpec, pallas_call


def kernel(a_ref, o_ref):
    o_ref[...] = a_ref[...] * a_ref[...]


a = jnp.ones((8, 256))
square = pallas_call(
    kernel,
    grid=(2,),
    in_specs=[BlockSpec(lambda j: (0, j), [8, 128])],  # error: JX716
    out_specs=BlockSpec((8, 128), lambda j: (0, j)),
    out_shape=jax.ShapeDtypeStruct(a.shape, a.dtype),
    interpret=True,
)(a)
