"""The runner in this process: engine failures, concurrent edits, worker deaths, stdin."""

from __future__ import annotations

import multiprocessing
import os

import pytest
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.project import runner


@pytest.fixture
def api(monkeypatch):
    """The engine module the runner calls; patch its functions to inject failures."""
    module = runner._engine()
    monkeypatch.setattr(module, "check_source", module.check_source)
    monkeypatch.setattr(module, "fix_source", module.fix_source)
    return module


def test_engine_exception_becomes_one_internal_error_and_the_run_goes_on(tmp_path, code, api, monkeypatch):
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_text(code.CLEAN)
    good.write_text(code.JIT_IF)
    real = api.check_source

    def flaky(source, path="<string>", settings=None):
        if path.endswith("bad.py"):
            raise RecursionError("too deep")
        return real(source, path, settings)

    monkeypatch.setattr(api, "check_source", flaky)
    result = runner.check_paths([str(bad), str(good)], Settings(), jobs=1)
    [internal] = result.files[0].diagnostics
    assert internal.code == "E900" and internal.line == 1
    assert "internal error" in internal.message and "RecursionError: too deep" in internal.message
    assert "please report" in internal.message
    assert [d.code for d in result.files[1].diagnostics] == ["JX101"]


def test_internal_errors_are_not_cached(tmp_path, code, api, monkeypatch):
    from xlalens.analyzers.project.cache import Cache

    file = tmp_path / "m.py"
    file.write_text(code.JIT_IF)
    real = api.check_source
    monkeypatch.setattr(api, "check_source", lambda *a, **k: 1 / 0)
    runner.check_paths([str(file)], Settings(), jobs=1, cache=Cache(tmp_path / "c", "v"))
    monkeypatch.setattr(api, "check_source", real)
    again = runner.check_paths([str(file)], Settings(), jobs=1, cache=Cache(tmp_path / "c", "v"))
    assert [d.code for d in again.diagnostics] == ["JX101"] and again.cache_hits == 0


def test_fix_refuses_a_file_edited_while_it_was_being_fixed(tmp_path, code, api, monkeypatch, require_rules):
    require_rules("JX601")
    file = tmp_path / "m.py"
    file.write_text(code.AT_SET)
    real = api.fix_source

    def racing(source, path="<string>", settings=None, *, unsafe=False):
        result = real(source, path, settings, unsafe=unsafe)
        file.write_text(code.AT_SET + "# the user saved meanwhile\n")
        return result

    monkeypatch.setattr(api, "fix_source", racing)
    result = runner.check_paths([str(file)], Settings(), jobs=1, fix=True)
    [refusal] = result.diagnostics
    assert refusal.code == "E902"
    assert "changed since xlalens read it" in refusal.message
    assert file.read_text().endswith("# the user saved meanwhile\n")
    assert result.fixed == 0
    assert [p.name for p in tmp_path.iterdir()] == ["m.py"]


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="needs forked workers")
def test_a_dying_worker_turns_its_files_into_internal_errors(tmp_path, code, api, monkeypatch):
    files = [tmp_path / f"m{i}.py" for i in range(4)]
    for file in files:
        file.write_text(code.JIT_IF)
    real = api.check_source

    def deadly(source, path="<string>", settings=None):
        if path.endswith("m0.py"):
            os._exit(1)  # what an out-of-memory kill looks like to the pool
        return real(source, path, settings)

    monkeypatch.setattr(api, "check_source", deadly)
    result = runner.check_paths([str(f) for f in files], Settings(), jobs=2)
    codes = [d.code for f in result.files for d in f.diagnostics]
    assert result.files[0].diagnostics[0].code == "E900"
    assert set(codes) <= {"E900", "JX101"} and len(result.files) == 4


def test_results_come_back_in_the_given_order(tmp_path, code):
    files = [tmp_path / f"{name}.py" for name in ("c", "a", "b")]
    for file in files:
        file.write_text(code.JIT_IF)
    result = runner.check_paths([str(f) for f in files], Settings(), jobs=2)
    assert [f.path for f in result.files] == [str(f) for f in files]


def test_check_stdin_fix_returns_the_whole_text(code, require_rules):
    require_rules("JX601")
    fixed = runner.check_stdin(code.AT_SET.encode(), "-", Settings(), fix=True)
    assert fixed.source == code.AT_SET.replace("x[0] = 1.0", "x = x.at[0].set(1.0)")
    untouched = runner.check_stdin(code.CLEAN.encode(), "-", Settings(), fix=True)
    assert untouched.source == code.CLEAN and untouched.diagnostics == ()


def test_check_stdin_reports_undecodable_input(code):
    result = runner.check_stdin(b"# coding: ascii\nx = '\xe9'\n", "-", Settings())
    [error] = result.diagnostics
    assert error.code == "E902" and error.line == 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_bar_goes_to_stderr_only(tmp_path, code, capsys, jobs):
    files = [tmp_path / f"m{i}.py" for i in range(3)]
    for file in files:
        file.write_text(code.CLEAN)
    result = runner.check_paths([str(f) for f in files], Settings(), jobs=jobs, progress=True)
    assert len(result.files) == 3
    assert capsys.readouterr().out == ""
