# oracle: runs
import jax
import jax.numpy as jnp


def make_loss(reduce):
    def loss(w, xs, ys):
        return reduce((xs @ w - ys) ** 2)

    return loss


# What `reduce` returns is not visible at the grad: the analysis does not know the output's shape.
loss = make_loss(jnp.mean)
print(jax.grad(loss)(jnp.ones(3), jnp.ones((8, 3)), jnp.zeros(8)))
