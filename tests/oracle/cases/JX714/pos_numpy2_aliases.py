# oracle: raises AttributeError: module 'jax.numpy' has no attribute 'row_stack'
import jax.numpy as np

rows = [np.ones(3), np.zeros(3)]
stacked = np.row_stack(rows)  # error: JX714
area = np.trapz(stacked[0])  # error: JX714
member = np.in1d(np.arange(4), np.array([1, 2]))  # error: JX714
ok = np.alltrue(member)  # error: JX714
