# oracle: stdout computed in: complex64
import jax
import jax.numpy as jnp


@jax.jit
def spectrum(signal):
    return jnp.fft.fft(signal.astype(jnp.complex128))  # error: JX802


out = spectrum(jnp.linspace(0.0, 1.0, 16))
print("computed in:", out.dtype)
