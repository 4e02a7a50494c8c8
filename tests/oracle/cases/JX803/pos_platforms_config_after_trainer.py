# oracle: stdout platform: cpu
import jax


class Trainer:
    def __init__(self):
        self.world = jax.device_count()

    def pin_platform(self, name):
        jax.config.update("jax_platforms", name)  # error: JX803


trainer = Trainer()
trainer.pin_platform("tpu")
print("platform:", jax.default_backend())
