"""Reading and writing Python source files without changing what the user did not ask to change.

Reading honours a PEP 263 coding cookie or a UTF-8 BOM (:func:`tokenize.detect_encoding`) and keeps
line endings as they are. Writing re-encodes with the same encoding, keeps the file's line-ending
style, refuses to touch a file whose bytes changed since they were read, and replaces the file
atomically (a temporary file in the same directory, then :func:`os.replace`), so a crash never
leaves a half-written source file behind.
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path


class SourceReadError(Exception):
    """A file that cannot be read or decoded; ``str()`` says why, without repeating the path.

    Attributes:
        path: The file.
        line: The 1-based line the problem is on (1 when it is not about one line).
    """

    def __init__(self, path: str, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.path = path
        self.line = line


class SourceWriteError(Exception):
    """Fixed text that was not written; ``str()`` says why (changed on disk, cannot encode...)."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """The text of a file as read, with what is needed to write it back faithfully.

    Attributes:
        path: Where it was read from.
        text: The decoded text, line endings untouched.
        encoding: The codec used (``utf-8-sig`` when the file starts with a BOM).
        digest: SHA-256 of the bytes that were read (hex).
    """

    path: str
    text: str
    encoding: str
    digest: str


def sha256_hex(data: bytes) -> str:
    """The hex SHA-256 of ``data``, the content key used by the cache and the write check."""
    return hashlib.sha256(data).hexdigest()


def decode_source(data: bytes, path: str) -> SourceFile:
    """Decode source bytes the way Python itself would.

    Raises:
        SourceReadError: if the coding cookie is invalid or the bytes do not decode.

    Examples:
        >>> decode_source(b"# -*- coding: latin-1 -*-\\r\\nx = '\\xe9'\\r\\n", "a.py").text
        "# -*- coding: latin-1 -*-\\r\\nx = 'é'\\r\\n"
        >>> decode_source(b"\\xef\\xbb\\xbfx = 1\\n", "a.py").encoding
        'utf-8-sig'
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        # An unknown or contradictory coding cookie; tokenize's message names the problem.
        message = f"cannot read the file: {error.msg}"
        raise SourceReadError(path, message, error.lineno or 1) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        bad = data[error.start : error.end].hex(" ")
        raise SourceReadError(
            path,
            f"cannot decode as {encoding} (byte {bad} on line {line}); "
            "add a coding cookie such as `# -*- coding: latin-1 -*-` or re-save it as UTF-8",
            line,
        ) from None
    except (LookupError, ValueError) as error:
        # A cookie naming a codec that is not a text encoding (rot13, hex, uu): Python refuses the file too.
        raise SourceReadError(path, f"cannot decode as {encoding}: {error}") from None
    return SourceFile(path=path, text=text, encoding=encoding, digest=sha256_hex(data))


def read_source(path: str | os.PathLike[str]) -> SourceFile:
    """Read and decode the Python file at ``path``.

    Raises:
        SourceReadError: if it cannot be opened or decoded.
    """
    name = os.fspath(path)
    try:
        # Non-blocking, so that a FIFO is refused below instead of waiting for a writer.
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise SourceReadError(name, f"cannot read the file: {error.strerror or error}") from None
    with os.fdopen(fd, "rb") as handle:
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise SourceReadError(name, f"not checked: {_file_kind(info.st_mode)}, not a regular file")
            if info.st_size > MAX_READ_BYTES:
                raise SourceReadError(
                    name, f"not checked: {info.st_size:,} bytes, over the limit of {MAX_READ_BYTES:,} bytes"
                )
            data = handle.read(MAX_READ_BYTES + 1)
        except OSError as error:
            raise SourceReadError(name, f"cannot read the file: {error.strerror or error}") from None
    if len(data) > MAX_READ_BYTES:  # grew while being read
        raise SourceReadError(name, f"not checked: over the limit of {MAX_READ_BYTES:,} bytes")
    return decode_source(data, name)


MAX_READ_BYTES = 64 * 1024 * 1024
"""Files are not read past this size (the engine analyzes far less; this bounds the memory a file can take)."""


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    kinds += ((stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))
    return next((name for test, name in kinds if test(mode)), "a special file")


_LONE_LF = re.compile(r"(?<!\r)\n")
_LONE_CR = re.compile(r"\r(?!\n)")


def match_newlines(original: str, new: str) -> str:
    r"""Give ``new`` the line-ending style of ``original`` when ``original`` used one style only.

    Fix edits are written with ``\n``; in a file that uses ``\r\n`` (or ``\r``) throughout, those
    would leave mixed line endings. A file that already mixes styles is left as the edits made it,
    since no single style is right there.

    Examples:
        >>> match_newlines("a\r\nb\r\n", "a\r\nx\ny\r\n")
        'a\r\nx\r\ny\r\n'
        >>> match_newlines("a\nb\r\n", "a\nx\n")
        'a\nx\n'
    """
    crlf = original.count("\r\n")
    lf = original.count("\n") - crlf
    cr = original.count("\r") - crlf
    if crlf and not lf and not cr:
        return _LONE_CR.sub("\r\n", _LONE_LF.sub("\r\n", new))
    if cr and not lf and not crlf:
        return new.replace("\r\n", "\r").replace("\n", "\r")
    return new


def encode_source(source: SourceFile, text: str) -> bytes:
    """Encode ``text`` with ``source``'s encoding (a BOM stays a BOM).

    Raises:
        SourceWriteError: if ``text`` has a character the encoding cannot represent.
    """
    try:
        return codecs.encode(text, source.encoding)
    except UnicodeEncodeError as error:
        char = error.object[error.start : error.end]
        raise SourceWriteError(
            f"fixes not written: the fixed text has {char!r}, which its encoding ({source.encoding}) cannot represent"
        ) from None


def write_source(source: SourceFile, text: str) -> bytes:
    """Replace the contents of ``source.path`` with ``text``, keeping encoding and line endings.

    What the user set up around the file stays as it was: through a symbolic link the target is
    written and the link kept; permissions and ownership carry over; a file with hard links is
    written in place, so every name keeps seeing the same file. Otherwise the new text goes to a
    temporary file in the same directory that then replaces the file atomically, so a crash never
    leaves a half-written source file behind.

    Returns:
        The bytes written (so callers can key a cache on them).

    Raises:
        SourceWriteError: if the file changed on disk since ``source`` was read, is read-only, or
            the text cannot be encoded, or the file cannot be written. The file is then left untouched.
    """
    path = os.path.realpath(source.path)
    data = encode_source(source, match_newlines(source.text, text))
    try:
        current = Path(path).read_bytes()
        info = os.stat(path)
    except OSError as error:
        raise SourceWriteError(f"fixes not written: {error.strerror or error}") from None
    if sha256_hex(current) != source.digest:
        raise SourceWriteError("fixes not written: the file changed since xlalens read it; run xlalens again")
    mode = stat.S_IMODE(info.st_mode)
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise SourceWriteError("fixes not written: the file is read-only")
    try:
        if info.st_nlink > 1:
            _write_in_place(path, data)
        else:
            _replace(path, data, info)
    except OSError as error:
        raise SourceWriteError(f"fixes not written: {error.strerror or error}") from None
    return data


def _write_in_place(path: str, data: bytes) -> None:
    with open(path, "r+b") as handle:
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())


def _replace(path: str, data: bytes, info: os.stat_result) -> None:
    directory, name = os.path.split(path)
    fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".xlalens-tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, stat.S_IMODE(info.st_mode))
        written = os.stat(temp)
        if (written.st_uid, written.st_gid) != (info.st_uid, info.st_gid) and not _give(temp, info):
            # Someone else's file that this user may write but not give away: keep its owner by
            # writing it in place.
            os.unlink(temp)
            _write_in_place(path, data)
            return
        os.replace(temp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _give(path: str, info: os.stat_result) -> bool:
    """Give ``path`` the owner and group of ``info``; whether that was allowed."""
    try:
        os.chown(path, info.st_uid, info.st_gid)
    except (AttributeError, OSError):
        return False
    return True
