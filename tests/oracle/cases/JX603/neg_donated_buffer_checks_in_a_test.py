# oracle: stdout donation checks passed
import unittest

import jax
import jax.numpy as jnp


class DonationTest(unittest.TestCase):
    def assertDeleted(self, x):
        self.assertTrue(x.is_deleted())

    def test_params_buffer_is_reused(self):
        update = jax.jit(lambda p, g: p - 0.1 * g, donate_argnums=0)
        params, grads = jnp.ones(4) + 0.0, jnp.ones(4)
        new = update(params, grads)
        self.assertDeleted(params)
        self.assertEqual(params.shape, new.shape)
        self.assertIsNot(params, new)
        spec = jax.ShapeDtypeStruct.like(params)
        self.assertEqual(spec.dtype, jnp.float32)
        self.assertIn("module", update.lower(params, grads).as_text()[:200])


result = unittest.TextTestRunner(verbosity=0).run(unittest.defaultTestLoader.loadTestsFromTestCase(DonationTest))
assert result.wasSuccessful()
print("donation checks passed")
