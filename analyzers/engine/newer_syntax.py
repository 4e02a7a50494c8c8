"""Whether a file that this Python cannot parse is valid for a newer one (``E998``) or for none (``E999``).

The answer comes from the grammar of the newer versions (libcst's parser, which knows Python 3.12
and 3.13) plus the checks CPython makes after its grammar, which libcst does not: string escapes
(``\\N{...}``), ASCII-only bytes literals, the 4,300-digit limit on int literals, and a stray byte
order mark. Errors that every version raises (too many nested brackets, indentation levels, a bad
escape found first) decide without asking libcst at all, and so does a file without any construct
the newer grammars add (PEP 695 type parameters and ``type`` statements, PEP 701 f-strings): most
syntax errors are typos, which must not cost a child process each.

libcst's parser is native code that must not see untrusted input in the process that runs the
check: it overflows its stack on deeply nested input (a thousand nested brackets end the process
with a segmentation fault) and takes time cubic in the length of a call chain (13 s for 250 links of
``.at[0].set(1)``). It only sees files whose bracket nesting stays under the limit CPython's own
tokenizer enforces, and it runs in a child process that is stopped after :data:`TIME_LIMIT_S`.

Examples:
    >>> def verdict(text):
    ...     try:
    ...         compile(text, "<text>", "exec")
    ...     except SyntaxError as error:
    ...         return needs_newer_python(text, error)
    >>> verdict("type Alias = list[int]\\n")
    True
    >>> verdict("x = '\\\\N{NO SUCH NAME}'\\n")
    False
    >>> verdict("x = " + "(" * 250 + "1" + ")" * 250 + "\\n")
    False
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import warnings

_MAX_BRACKET_DEPTH = 199
"""CPython's tokenizer refuses a 200th nested bracket, in every version."""

_NO_VERSION_ACCEPTS = (
    "(unicode error)",
    "(value error)",
    "bytes can only contain ASCII",
    "Exceeds the limit",
    "too many nested parentheses",
    "too many levels of indentation",
    "invalid non-printable character",
    "source code cannot contain null bytes",
)
"""Fragments of SyntaxError messages for what no Python version accepts."""

_NEWER_VERSIONS = ("3.13", "3.12")
_NEWER_CONSTRUCTS = re.compile(
    r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+[ \t]*\["  # PEP 695 type parameters
    r"|(?:^|[:;])[ \t]*type[ \t]+\w+[ \t]*[\[=]",  # PEP 695 type statement
    re.MULTILINE,
)
"""What the newer grammars add that this one refuses, besides f-strings (whose errors say ``f-string``)."""
TIME_LIMIT_S = 10.0
"""How long libcst may take to decide; a file it cannot decide in time counts as a syntax error."""


def needs_newer_python(text: str, error: SyntaxError) -> bool:
    """Whether ``text``, which raised ``error`` here, is valid Python for a newer version."""
    message = str(error.msg)
    if any(fragment in message for fragment in _NO_VERSION_ACCEPTS):
        return False
    if text.startswith("\ufeff") or "\x00" in text or _bracket_depth(text) > _MAX_BRACKET_DEPTH:
        return False
    if not message.startswith("f-string") and not _NEWER_CONSTRUCTS.search(text):
        return False  # nothing a newer grammar adds: a plain syntax error, without asking libcst
    try:
        import libcst  # noqa: F401 - only whether it is installed: the parse happens in a child process
    except ImportError:
        return False
    try:
        # Isolated from the environment's variables, but on this process's import path: a server
        # bundled with an editor extension finds xlalens and libcst only in its own folders.
        child = subprocess.run(
            [sys.executable, "-I", "-c", _CHILD, *sys.path],
            input=text.encode("utf-8", "surrogatepass"),
            capture_output=True,
            timeout=TIME_LIMIT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return child.returncode == 0


def _grammar_accepts(text: str) -> bool:
    """Whether a newer Python's grammar and literal checks accept ``text`` (runs libcst here)."""
    import libcst

    for version in _NEWER_VERSIONS:
        try:
            module = libcst.parse_module(text, config=libcst.PartialParserConfig(python_version=version))
        except Exception:  # libcst's errors for what its grammar refuses are not all ParserSyntaxError
            continue
        return _literals_valid(module, libcst)
    return False


def _bracket_depth(text: str) -> int:
    """The deepest nesting of brackets, counting those in strings and comments too (an upper bound)."""
    depth = deepest = 0
    for char in text:
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}" and depth:
            depth -= 1
    return deepest


def _literals_valid(module: object, libcst: object) -> bool:
    """Whether every literal of a libcst tree is one CPython accepts (escapes, bytes, digits)."""
    tokens: list[str] = []
    cst = libcst

    class _Literals(cst.CSTVisitor):  # type: ignore[attr-defined,name-defined,misc]
        def visit_SimpleString(self, node: object) -> None:
            tokens.append(node.value)  # type: ignore[attr-defined]

        def visit_Integer(self, node: object) -> None:
            tokens.append(node.value)  # type: ignore[attr-defined]

        def visit_FormattedString(self, node: object) -> None:
            if "r" in node.prefix.lower():  # type: ignore[attr-defined]
                return
            # The text between replacement fields is checked as a plain string's body.
            for part in node.parts:  # type: ignore[attr-defined]
                if isinstance(part, cst.FormattedStringText):  # type: ignore[attr-defined]
                    tokens.append('"""' + part.value.replace('"', '\\"') + ' """')

    module.visit(_Literals())  # type: ignore[attr-defined]
    return all(_literal_valid(token) for token in tokens)


def _literal_valid(token: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.literal_eval(token)
    except (SyntaxError, ValueError, MemoryError):
        return False
    return True


_CHILD = (
    "import sys; sys.path[:] = sys.argv[1:]; "
    "from xlalens.analyzers.engine.newer_syntax import _grammar_accepts; "
    "sys.exit(0 if _grammar_accepts(sys.stdin.buffer.read().decode('utf-8', 'surrogatepass')) else 1)"
)
"""The child's program: the parent's import path, then libcst's verdict on standard input as its status."""
