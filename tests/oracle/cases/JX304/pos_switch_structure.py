# oracle: raises TypeError: switch branch outputs must have the same pytree structure
from jax import lax

lax.switch(1, [lambda: (1.0,), lambda: 1.0])  # error: JX304
