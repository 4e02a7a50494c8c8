# oracle: stdout traces after 3 and 6 steps: 3 6
import jax
import jax.numpy as jnp

traces = []


class Trainer:
    def __init__(self, lr, l2):
        self.lr = lr
        self.l2 = l2

    def loss(self, params, x, y):
        traces.append(1)
        pred = jnp.tanh(x @ params["w1"]) @ params["w2"]
        return jnp.mean((pred - y) ** 2) + self.l2 * jnp.sum(params["w1"] ** 2)

    def train_step(self, params, x, y):
        grad_fn = jax.jit(jax.grad(self.loss))  # error: JX205
        grads = grad_fn(params, x, y)
        return jax.tree.map(lambda p, g: p - self.lr * g, params, grads)

    def fit(self, params, batches):
        counts = []
        for x, y in batches:
            params = self.train_step(params, x, y)
            counts.append(len(traces))
        return params, counts


params = {"w1": jnp.ones((8, 16)) * 0.1, "w2": jnp.ones((16, 1)) * 0.1}
batches = [(jnp.ones((4, 8)), jnp.zeros((4, 1)))] * 6
params, counts = Trainer(lr=0.1, l2=1e-4).fit(params, batches)
print("traces after 3 and 6 steps:", counts[2], counts[5])
