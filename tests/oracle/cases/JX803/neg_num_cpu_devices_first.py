# oracle: stdout devices: 4
import jax


def configure(cpu_devices):
    jax.config.update("jax_num_cpu_devices", cpu_devices)


configure(4)
mesh = jax.make_mesh((4,), ("data",))
print("devices:", mesh.devices.size)
