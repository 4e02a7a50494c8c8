# oracle: stdout carry JitTracer(
import jax
import jax.numpy as jnp
from jax import lax


class Integrator:
    def __init__(self, dt=0.1, damping=0.5):
        self.dt = dt
        self.damping = damping

    def _step(self, state, force):
        pos, vel = state
        vel = vel + self.dt * (force - self.damping * vel)
        pos = pos + self.dt * vel
        print("carry", pos)  # error: JX106
        return (pos, vel), pos

    def rollout(self, pos0, forces):
        _, traj = lax.scan(self._step, (pos0, jnp.zeros_like(pos0)), forces)
        return traj


sim = Integrator()
traj = jax.jit(sim.rollout)(jnp.zeros(2), jnp.ones((4, 2)))
