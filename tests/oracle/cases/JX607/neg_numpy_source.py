# oracle: stdout [7. 0.]
import numpy as np

host = np.asarray(np.zeros(2))
host[0] = 7.0
print(host)
