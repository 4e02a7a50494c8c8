# oracle: stdout processes: 1
import socket

import jax


def free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def setup(seed):
    jax.distributed.initialize(f"localhost:{free_port()}", num_processes=1, process_id=0)
    return jax.random.key(seed)


setup(0)
print("processes:", jax.process_count())
