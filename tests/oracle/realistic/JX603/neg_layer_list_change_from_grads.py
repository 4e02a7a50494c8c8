# oracle: stdout layer 2 moved by
import jax
import jax.numpy as jnp


@jax.jit
def layer_grads(layers, x):
    def loss(layers):
        h = x
        for w in layers:
            h = jnp.tanh(h @ w)
        return jnp.sum(h)

    return jax.grad(loss)(layers)


update_layer = jax.jit(lambda w, g: w - 0.05 * g, donate_argnums=0)
layers = [jnp.eye(8) for _ in range(3)]
grads = layer_grads(layers, jnp.ones((2, 8)))
layers = [update_layer(w, g) for w, g in zip(layers, grads)]
for i, g in enumerate(grads):
    print(f"layer {i} moved by", 0.05 * jnp.linalg.norm(g))
