# oracle: stdout 5
class Frame:
    class _At:
        def __getitem__(self, key):
            return self

        def set(self, value):
            print(value)

    at = _At()


Frame().at[0].set(5)
