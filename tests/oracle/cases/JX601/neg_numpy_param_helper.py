# oracle: runs
import numpy as np


def clear_row(m: np.ndarray, i: int) -> np.ndarray:
    m[i, :] = 0.0
    m[i, i] += 1.0
    return m


clear_row(np.eye(3), 1)
