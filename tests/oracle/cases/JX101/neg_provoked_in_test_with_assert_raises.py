# oracle: stdout provoked TracerBoolConversionError as the test expects
import unittest

import jax
import jax.numpy as jnp


def clip_positive(x):
    if x > 0:
        return x
    return -x


class ClipTest(unittest.TestCase):
    def test_jit_rejects_python_branch(self):
        with self.assertRaises(jax.errors.TracerBoolConversionError):
            jax.jit(lambda v: jnp.sin(v) if v > 0 else v)(1.0)
        print("provoked TracerBoolConversionError as the test expects")


suite = unittest.defaultTestLoader.loadTestsFromTestCase(ClipTest)
result = unittest.TextTestRunner(verbosity=0).run(suite)
assert result.wasSuccessful()
