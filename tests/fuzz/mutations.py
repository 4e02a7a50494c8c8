"""Hostile variants of real source files: what a fuzzer feeds xlalens, shared by the tests and ``benchmarks/fuzz.py``.

Each mutation takes the bytes of a file and a seeded random generator and returns new bytes: cut
off anywhere, bytes flipped, brackets, blocks and operator chains nested far deeper than people
write, the text re-encoded or given other line endings, lines dropped or repeated, absurd
numbers. The variants are deterministic for a seed, so a failure can be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

Mutation = Callable[[bytes, random.Random], bytes]


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    mutable = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if mutable:
            mutable[rng.randrange(len(mutable))] = rng.randrange(256)
    return bytes(mutable)


def insert_token(data: bytes, rng: random.Random) -> bytes:
    tokens = (b"(", b")", b"[", b"]", b"{", b"}", b":", b"\\", b'"', b"'", b'"""', b"\t", b"\n    ", b"lambda", b"@")
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(tokens) + data[at:]


def deep_brackets(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((150, 199, 201, 1000, 5000))
    return data + b"\nvalue = " + b"(" * depth + b"1" + b")" * depth + b"\n"


def deep_blocks(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((50, 99, 101))
    lines = [b" " * level + b"if x:" for level in range(depth)] + [b" " * depth + b"pass"]
    return data + b"\n" + b"\n".join(lines) + b"\n"


def long_chains(data: bytes, rng: random.Random) -> bytes:
    count = rng.choice((200, 500, 2000))
    shapes = (
        b"total = " + b" + ".join([b"x"] * count),
        b"y = x" + b".at[0].set(1)" * min(count, 199),
        b"z = " + b"-" * count + b"x",
        b"w = x" + b".T" * count,
        b"if n == 0:\n    pass\n" + b"".join(b"elif n == %d:\n    pass\n" % i for i in range(1, min(count, 196))),
    )
    return data + b"\nimport jax.numpy as jnp\nx = jnp.zeros(3)\n" + rng.choice(shapes) + b"\n"


def absurd_numbers(data: bytes, rng: random.Random) -> bytes:
    number = rng.choice((b"float('nan')", b"float('inf')", b"2**64", str(2**64).encode(), b"10**400", b"-1", b"0"))
    shapes = (
        b"a = jnp.arange(%s)",
        b"a = jnp.zeros((%s, 3))",
        b"a = jnp.arange(0, 10, %s)",
        b"for i in range(%s):\n    a = jnp.zeros(i)",
        b"a = jnp.zeros(8)[:%s]",
        b"a = jnp.linspace(0, 1, %s)",
    )
    return data + b"\nimport jax.numpy as jnp\n" + rng.choice(shapes).replace(b"%s", number) + b"\n"


def self_reference(data: bytes, rng: random.Random) -> bytes:
    return data + rng.choice((b"\nx = x.shape\nx.reshape(1)\n", b"\na = b.c\nb = a.d\na.e()\n", b"\nq = q + q\n"))


def newer_syntax(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((2, 20, 200))
    nested = b'f"{' * depth + b"x" + b'}"' * depth
    shapes = (
        b"def kernel[T: int, *Ts, **P](x_ref, o_ref):\n    o_ref[...] = x_ref[...]",
        b"class Tiler[T]:\n    def tile[S](self, x: S) -> S:\n        return x",
        b"type Shape[T] = tuple[T, ...]",
        b'msg = f"{table["k"]!r:>{width}} {"\\n".join(rows)}"',
        b'msg = f"{\n    x  # the value\n    + 1\n}"',
        b"msg = " + nested,
    )
    return data + b"\n" + rng.choice(shapes) + b"\n"


def line_endings(data: bytes, rng: random.Random) -> bytes:
    text = data.replace(b"\r\n", b"\n")
    return text.replace(b"\n", rng.choice((b"\r\n", b"\r", b"\n\r")))


def encodings(data: bytes, rng: random.Random) -> bytes:
    choice = rng.randrange(6)
    if choice == 0:
        return b"\xef\xbb\xbf" + data
    if choice == 1:
        return b"\xef\xbb\xbf\xef\xbb\xbf" + data
    if choice == 2:
        codec = rng.choice((b"rot13", b"hex", b"uu", b"nope", b"latin-1", b"utf-16"))
        return b"# -*- coding: " + codec + b" -*-\n" + data
    if choice == 3:
        return data + b"\nx = b'\xc3\xa9'\ny = '\\N{NO SUCH NAME}'\n"
    if choice == 4:
        return data.replace(b"\n", b"\x00\n", 1)
    return data + b"\nx = " + b"1" * 5000 + b"\n"


def shuffle_lines(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 5)):
        if not lines:
            break
        at = rng.randrange(len(lines))
        if rng.random() < 0.5:
            del lines[at]
        else:
            lines.insert(rng.randrange(len(lines) + 1), lines[at])
    return b"\n".join(lines)


def dedent_or_indent(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    if lines:
        at = rng.randrange(len(lines))
        lines[at] = lines[at].lstrip() if rng.random() < 0.5 else b"    " + lines[at]
    return b"\n".join(lines)


MUTATIONS: tuple[Mutation, ...] = (
    truncate,
    flip_bytes,
    insert_token,
    deep_brackets,
    deep_blocks,
    long_chains,
    absurd_numbers,
    self_reference,
    newer_syntax,
    line_endings,
    encodings,
    shuffle_lines,
    dedent_or_indent,
)


def mutants(sources: Sequence[bytes], count: int, seed: int) -> Iterator[tuple[str, bytes]]:
    """``count`` variants of ``sources``: ``(description, bytes)``, one to three mutations each."""
    rng = random.Random(seed)
    for number in range(count):
        data = rng.choice(sources)
        names = []
        for _ in range(rng.randint(1, 3)):
            mutation = rng.choice(MUTATIONS)
            names.append(mutation.__name__)
            data = mutation(data, rng)
        yield f"#{number} {'+'.join(names)}", data
