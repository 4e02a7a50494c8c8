# oracle: stdout param norm is
import jax
import jax.numpy as jnp


def momentum_step(params, velocity, grads, lr=0.1, beta=0.9):
    velocity = beta * velocity + grads
    return params - lr * velocity, velocity


momentum_step = jax.jit(momentum_step, donate_argnums=(0, 1))


def run(carry, grads_per_step):
    for grads in grads_per_step:
        params, velocity = carry
        params, velocity = momentum_step(params, velocity, grads)
        carry = (params, velocity)
        print("param norm is", jnp.linalg.norm(carry[0]))
    return carry


final = run((jnp.ones(4), jnp.zeros(4)), [jnp.ones(4), jnp.ones(4)])
print(final[0])
