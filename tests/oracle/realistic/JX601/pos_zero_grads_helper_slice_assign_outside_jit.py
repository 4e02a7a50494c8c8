# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return jnp.mean((h @ params["w2"] - y) ** 2)


def freeze_biases(grads):
    for name, g in grads.items():
        if name.startswith("b"):
            g[:] = 0.0  # error: JX601
    return grads


def sgd(params, grads, lr=0.1):
    return {k: params[k] - lr * grads[k] for k in params}


params = {"w1": jnp.ones((3, 4)) * 0.1, "b1": jnp.zeros(4), "w2": jnp.ones((4, 1)) * 0.1}
x, y = jnp.ones((2, 3)), jnp.zeros((2, 1))
grads = jax.jit(jax.grad(loss_fn))(params, x, y)
params = sgd(params, freeze_biases(grads))
print(params["b1"])
