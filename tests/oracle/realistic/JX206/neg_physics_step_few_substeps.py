# oracle: stdout equations per step: 28
import jax
import jax.numpy as jnp

SUBSTEPS = 4


def spring_force(pos, stiffness):
    return -stiffness * pos


def integrate(pos, vel, stiffness, dt):
    h = dt / SUBSTEPS
    for _ in range(SUBSTEPS):
        vel = vel + h * spring_force(pos, stiffness)
        pos = pos + h * vel
    return pos, vel


@jax.jit
def physics_step(state, stiffness):
    pos, vel = integrate(state["pos"], state["vel"], stiffness, dt=0.01)
    return {"pos": pos, "vel": vel}


state = {"pos": jnp.ones(3), "vel": jnp.zeros(3)}
jaxpr = jax.make_jaxpr(physics_step)(state, 2.0)
print("equations per step:", len(jaxpr.eqns[0].params["jaxpr"].jaxpr.eqns))
