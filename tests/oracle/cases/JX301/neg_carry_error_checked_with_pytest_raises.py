# oracle: stdout pytest.raises saw the carry TypeError
import jax.numpy as jnp
import pytest
from jax import lax


def count_steps(limit):
    return lax.while_loop(lambda c: c < limit, lambda c: c + 0.5, jnp.int32(0))


with pytest.raises(TypeError, match="carry input and carry output must have equal types"):
    count_steps(3)
print("pytest.raises saw the carry TypeError")
