# oracle: stdout epoch 0 loss 5.0
import jax
import jax.numpy as jnp


@jax.jit
def loss(w):
    return jnp.sum(w**2)


def log_epoch(epoch, value):
    print("epoch", epoch, "loss", value)


for epoch in range(1):
    log_epoch(epoch, float(loss(jnp.arange(3.0))))
