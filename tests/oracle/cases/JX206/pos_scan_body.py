# oracle: stdout unrolled inside scan: True
import jax
import jax.numpy as jnp
from jax import lax


def body(carry, row):
    for j in range(0, 256, 2):  # error: JX206
        carry = carry + row[j]
    return carry, carry


jaxpr = jax.make_jaxpr(lambda rows: lax.scan(body, 0.0, rows))(jnp.ones((4, 256)))
inner = jaxpr.jaxpr.eqns[0].params["jaxpr"].jaxpr
print("unrolled inside scan:", len(inner.eqns) >= 128)
