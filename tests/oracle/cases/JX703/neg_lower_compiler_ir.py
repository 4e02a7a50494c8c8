# oracle: runs
import jax
import jax.numpy as jnp


def dump_hlo(fn, *args):
    return jax.jit(fn).lower(*args).compiler_ir("hlo").as_hlo_text()


print("sine" in dump_hlo(jnp.sin, 1.0))
