# oracle: raises ImportError: cannot import name 'index_update' from 'jax.ops'
from jax.ops import index_update, segment_sum  # error: JX715
