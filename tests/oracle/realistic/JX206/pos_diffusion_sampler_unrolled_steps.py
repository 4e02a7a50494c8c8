# oracle: stdout denoiser calls in the program: 100
import jax
import jax.numpy as jnp

NUM_SAMPLING_STEPS = 100


def denoise(params, x, t):
    temb = jnp.sin(t * params["freq"])
    return jnp.tanh(x @ params["w"] + temb)


def ddim_update(params, x, t):
    eps = denoise(params, x, t / NUM_SAMPLING_STEPS)
    return x - 0.01 * eps


@jax.jit
def sample(params, x):
    for t in reversed(range(NUM_SAMPLING_STEPS)):  # error: JX206
        x = ddim_update(params, x, t)
    return x


params = {"w": jnp.eye(8) * 0.5, "freq": jnp.ones(8)}
jaxpr = jax.make_jaxpr(sample)(params, jnp.ones((2, 8)))
inner = jaxpr.eqns[0].params["jaxpr"].jaxpr
print("denoiser calls in the program:", sum(e.primitive.name == "tanh" for e in inner.eqns))
