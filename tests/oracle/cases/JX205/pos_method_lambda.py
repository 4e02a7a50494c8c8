# oracle: stdout compiles: 4
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(<lambda>)"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)



class Model:
    def __init__(self, params):
        self.params = params

    def apply(self, x):
        return jax.jit(lambda p, v: v @ p)(self.params, x)  # error: JX205

    def run(self, xs):
        return [self.apply(x) for x in xs]


Model(jnp.ones((4, 2))).run([jnp.ones((8, 4))] * 4)
print("compiles:", len(compiles))
