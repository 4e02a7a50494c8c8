"""Reading sources faithfully and writing fixes atomically (``fileio``)."""

from __future__ import annotations

import os
import stat
import sys
import tempfile

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


def _fix(file):
    from xlalens.analyzers.core.settings import Settings
    from xlalens.analyzers.project import runner

    return runner.check_paths([str(file)], Settings(), jobs=1, fix=True)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and modes")
def test_fix_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path, code, require_rules):
    require_rules("JX601")
    target = tmp_path / "real.py"
    target.write_text(code.AT_SET)
    link = tmp_path / "link.py"
    link.symlink_to("real.py")
    assert _fix(link).fixed == 1
    assert link.is_symlink() and os.readlink(link) == "real.py"
    assert "x.at[0].set(1.0)" in target.read_text()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and modes")
def test_fix_keeps_hard_links_and_permissions(tmp_path, code, require_rules):
    require_rules("JX601")
    first = tmp_path / "a.py"
    first.write_text(code.AT_SET)
    first.chmod(0o640)
    second = tmp_path / "b.py"
    os.link(first, second)
    assert _fix(first).fixed == 1
    assert os.stat(first).st_ino == os.stat(second).st_ino
    assert "x.at[0].set(1.0)" in second.read_text()
    assert stat.S_IMODE(os.stat(first).st_mode) == 0o640


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_fix_refuses_a_read_only_file(tmp_path, code, require_rules):
    require_rules("JX601")
    file = tmp_path / "m.py"
    file.write_text(code.AT_SET)
    file.chmod(0o444)
    result = _fix(file)
    [refusal] = result.diagnostics
    assert refusal.code == "E902" and "read-only" in refusal.message
    assert file.read_text() == code.AT_SET and result.fixed == 0


def test_fix_in_a_directory_it_cannot_write_says_fixes_not_written(tmp_path, code, require_rules, monkeypatch):
    require_rules("JX601")
    file = tmp_path / "m.py"
    file.write_text(code.AT_SET)

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    [refusal] = _fix(file).diagnostics
    assert refusal.code == "E902" and refusal.message == "fixes not written: Permission denied"
    assert file.read_text() == code.AT_SET
