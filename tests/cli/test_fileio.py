"""Reading sources faithfully and writing fixes atomically (``fileio``)."""

from __future__ import annotations

import os

import pytest
from xlalens.analyzers.inputs.fileio import (
    SourceReadError,
    SourceWriteError,
    decode_source,
    match_newlines,
    read_source,
    write_source,
)


def test_read_keeps_crlf_and_reports_encoding(tmp_path):
    path = tmp_path / "m.py"
    path.write_bytes(b"x = 1\r\ny = 2\r\n")
    source = read_source(path)
    assert source.text == "x = 1\r\ny = 2\r\n"
    assert source.encoding == "utf-8"


def test_read_honours_coding_cookie_and_bom():
    latin = decode_source(b"# coding: latin-1\ns = '\xe9'\n", "m.py")
    assert latin.encoding == "iso-8859-1" and "é" in latin.text
    bom = decode_source(b"\xef\xbb\xbfs = '\xc3\xa9'\n", "m.py")
    assert bom.encoding == "utf-8-sig" and bom.text == "s = 'é'\n"


def test_undecodable_bytes_name_the_line_and_byte():
    with pytest.raises(SourceReadError) as error:
        decode_source(b"a = 1\nb = '\xff'\n", "m.py")
    assert error.value.line == 2
    assert "cannot decode as utf-8 (byte ff on line 2)" in str(error.value)


def test_unknown_coding_cookie_is_a_read_error():
    with pytest.raises(SourceReadError, match="unknown encoding"):
        decode_source(b"# coding: klingon\nx = 1\n", "m.py")


def test_unreadable_file_is_a_read_error(tmp_path):
    with pytest.raises(SourceReadError, match="cannot read the file"):
        read_source(tmp_path / "missing.py")


def test_match_newlines():
    assert match_newlines("a\r\nb\r\n", "a\r\nnew\nb\r\n") == "a\r\nnew\r\nb\r\n"
    assert match_newlines("a\rb\r", "a\rnew\nb\r") == "a\rnew\rb\r"
    assert match_newlines("a\nb\n", "a\nnew\nb\n") == "a\nnew\nb\n"
    mixed = "a\r\nb\n"
    assert match_newlines(mixed, "a\r\nnew\nb\n") == "a\r\nnew\nb\n"


def test_write_replaces_atomically_keeping_encoding_and_newlines(tmp_path):
    path = tmp_path / "m.py"
    path.write_bytes("# coding: latin-1\r\ns = 'é'\r\n".encode("latin-1"))
    source = read_source(path)
    inode_before = path.stat().st_ino
    written = write_source(source, source.text.replace("s =", "t =").replace("\r\n", "\n"))
    assert path.read_bytes() == written == "# coding: latin-1\r\nt = 'é'\r\n".encode("latin-1")
    assert path.stat().st_ino != inode_before  # a new file was renamed over the old one
    assert os.listdir(tmp_path) == ["m.py"]


def test_write_refuses_when_the_file_changed_since_it_was_read(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    source = read_source(path)
    path.write_text("x = 2\n")  # an editor saved in between
    with pytest.raises(SourceWriteError, match="changed since xlalens read it"):
        write_source(source, "x = 3\n")
    assert path.read_text() == "x = 2\n"
    assert os.listdir(tmp_path) == ["m.py"]


def test_write_refuses_text_the_encoding_cannot_hold(tmp_path):
    path = tmp_path / "m.py"
    path.write_bytes(b"# coding: latin-1\nx = 1\n")
    source = read_source(path)
    with pytest.raises(SourceWriteError, match="cannot represent"):
        write_source(source, "# coding: latin-1\nx = '值'\n")
    assert path.read_bytes() == b"# coding: latin-1\nx = 1\n"


def test_write_fails_cleanly_when_the_file_is_gone(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    source = read_source(path)
    path.unlink()
    with pytest.raises(SourceWriteError, match="fixes not written"):
        write_source(source, "x = 2\n")
    assert os.listdir(tmp_path) == []
