# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


def run():
    def f(n, x):
        out = lax.while_loop(lambda c: c < 100.0, lambda c: c * c, x)
        return out + n

    return jax.grad(f, argnums=1)(1.0, 2.0)  # error: JX305


run()
