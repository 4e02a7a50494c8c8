# oracle: raises RuntimeError: jax_num_cpu_devices config should be updated before backends are initialized
import jax

MESH = jax.make_mesh((2,), ("data",))


def configure(cpu_devices):
    jax.config.update("jax_num_cpu_devices", cpu_devices)  # error: JX803


configure(4)
