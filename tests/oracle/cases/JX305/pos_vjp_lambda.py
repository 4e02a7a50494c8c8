# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax

_, pullback = jax.vjp(lambda x: lax.while_loop(lambda c: c < 3.0, lambda c: c + 1.0, x), 0.5)  # error: JX305
pullback(1.0)
