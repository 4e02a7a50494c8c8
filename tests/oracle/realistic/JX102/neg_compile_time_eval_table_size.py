# oracle: stdout buckets 8
import jax
import jax.numpy as jnp


def num_buckets(max_distance):
    with jax.ensure_compile_time_eval():
        n = jnp.ceil(jnp.log2(jnp.asarray(max_distance, jnp.float32)))
        return int(n) + 1


class RelativePositionBias:
    def __init__(self, max_distance=128):
        self.max_distance = max_distance

    def __call__(self, table, q_len):
        buckets = num_buckets(self.max_distance)
        print("buckets", buckets)
        rel = jnp.arange(q_len)[:, None] - jnp.arange(q_len)[None, :]
        idx = jnp.clip(jnp.abs(rel), 0, buckets - 1)
        return table[idx]


bias = RelativePositionBias()
out = jax.jit(lambda t: bias(t, 4))(jnp.linspace(0.0, 1.0, 8))
print(out.shape)
