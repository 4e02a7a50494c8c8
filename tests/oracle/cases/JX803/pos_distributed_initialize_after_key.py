# oracle: raises RuntimeError: jax.distributed.initialize() must be called before any JAX calls
import socket

import jax


def free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def setup(seed):
    key = jax.random.key(seed)
    jax.distributed.initialize(f"localhost:{free_port()}", num_processes=1, process_id=0)  # error: JX803
    return key


setup(0)
