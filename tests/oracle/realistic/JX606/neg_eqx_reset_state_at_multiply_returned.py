# oracle: stdout hidden after reset [0. 0.]
import equinox as eqx
import jax
import jax.numpy as jnp


class RecurrentAgent(eqx.Module):
    cell: eqx.nn.GRUCell

    def __init__(self, key):
        self.cell = eqx.nn.GRUCell(2, 2, key=key)

    def reset_done(self, hidden, done):
        return hidden.at[:].multiply(1.0 - done)

    def __call__(self, hidden, obs, done):
        hidden = self.reset_done(hidden, done)
        return hidden, self.cell(obs, hidden)


@eqx.filter_jit
def act(agent, hidden, obs, done):
    return agent(hidden, obs, done)


agent = RecurrentAgent(jax.random.PRNGKey(0))
reset_hidden, _ = act(agent, jnp.ones(2), jnp.zeros(2), jnp.array(1.0))
print("hidden after reset", reset_hidden)
