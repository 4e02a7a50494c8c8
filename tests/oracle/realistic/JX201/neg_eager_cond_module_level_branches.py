# oracle: stdout compiles after 3 and 6 steps: 2 2
import jax
import jax.numpy as jnp
from jax import lax

compiles = []
jax.monitoring.register_event_duration_secs_listener(
    lambda event, duration, **kw: compiles.append(event) if event == "/jax/core/compile/backend_compile_duration" else None
)


@jax.jit
def compute_grads(w, x, y):
    return jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)


def rescale(operand):
    grads, scale = operand
    return grads * scale


def keep(operand):
    grads, _ = operand
    return grads


w = jnp.zeros((16, 1))
x, y = jnp.ones((32, 16)), jnp.ones((32, 1))
max_norm = 1.0
compute_grads(w, x, y)
counts = []
for step in range(6):
    grads = compute_grads(w, x, y)
    norm = jnp.linalg.norm(grads)
    scale = max_norm / norm
    too_large = norm > max_norm
    start = len(compiles)
    grads = lax.cond(too_large, rescale, keep, (grads, scale))
    counts.append(len(compiles) - start)
    w = w - 0.1 * grads
print("compiles after 3 and 6 steps:", sum(counts[:3]), sum(counts))
