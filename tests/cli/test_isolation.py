"""No single file takes the run down: crashes, hangs, recursion and odd encodings stay with their file."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest
from xlalens.analyzers import check_source
from xlalens.analyzers.cli.main import main
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import pipeline
from xlalens.analyzers.project import runner

needs_fork = pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="needs forked workers")


@pytest.fixture
def api(monkeypatch):
    module = runner._engine()
    monkeypatch.setattr(module, "check_source", module.check_source)
    return module


def _files(tmp_path, text, count):
    files = [tmp_path / f"m{i}.py" for i in range(count)]
    for file in files:
        file.write_text(text)
    return [str(f) for f in files]


@needs_fork
def test_a_segfault_is_one_internal_error_and_spares_the_files_of_its_worker(tmp_path, code, api, monkeypatch):
    paths = _files(tmp_path, code.JIT_IF, 8)
    real = api.check_source

    def crashing(source, path="<string>", settings=None):
        if path.endswith("m3.py"):
            os.kill(os.getpid(), signal.SIGSEGV)
        return real(source, path, settings)

    monkeypatch.setattr(api, "check_source", crashing)
    result = runner.check_paths(paths, Settings(), jobs=2)
    codes = [[d.code for d in f.diagnostics] for f in result.files]
    assert codes == [["JX101"]] * 3 + [["E900"]] + [["JX101"]] * 4
    message = result.files[3].diagnostics[0].message
    assert "SIGSEGV" in message and "(reading)" in message


@needs_fork
def test_a_hanging_file_is_stopped_and_the_others_are_checked(tmp_path, code, api, monkeypatch):
    paths = _files(tmp_path, code.JIT_IF, 4)
    real = api.check_source

    def hanging(source, path="<string>", settings=None):
        if path.endswith("m0.py"):
            time.sleep(3600)
        return real(source, path, settings)

    monkeypatch.setattr(api, "check_source", hanging)
    monkeypatch.setattr(pipeline, "TIME_LIMIT_S", 1.0)
    monkeypatch.setattr(runner, "_GRACE_S", 0.5)
    started = time.monotonic()
    result = runner.check_paths(paths, Settings(), jobs=2)
    assert time.monotonic() - started < 30
    [stopped] = result.files[0].diagnostics
    assert stopped.code == "E900" and "ran longer than 1.5 s" in stopped.message
    assert [d.code for f in result.files[1:] for d in f.diagnostics] == ["JX101"] * 3


def test_a_check_stuck_in_python_code_is_stopped_in_this_process(monkeypatch, code):
    def endless(*args):
        while True:
            pass

    monkeypatch.setattr(pipeline, "_check_python", endless)
    monkeypatch.setattr(pipeline, "TIME_LIMIT_S", 0.5)
    with pytest.raises(pipeline.CheckTimeout):
        check_source(code.JIT_IF, "m.py")


def test_the_stage_and_the_rule_are_named(monkeypatch, tmp_path, code, require_rules):
    require_rules("JX101")
    from xlalens.analyzers.engine import registry

    rule = next(r for r in registry.all_rules() if r.code == "JX101")

    def broken(self, node, ctx):
        raise ValueError("broken rule")

    monkeypatch.setattr(rule, "check", broken)
    [path] = _files(tmp_path, code.JIT_IF, 1)
    [internal] = runner.check_paths([path], Settings(), jobs=1).diagnostics
    assert internal.code == "E900"
    assert "(analysis (rule JX101, line 6))" in internal.message and "ValueError: broken rule" in internal.message


def test_internal_errors_exit_2_even_with_exit_zero(tmp_path, code, api, monkeypatch, capsys):
    [path] = _files(tmp_path, code.JIT_IF, 1)
    monkeypatch.setattr(api, "check_source", lambda *args: 1 / 0)
    assert main(["check", "--no-cache", "-j1", path]) == 2
    assert main(["check", "--no-cache", "-j1", "--exit-zero", path]) == 2
    assert "E900" in capsys.readouterr().out


def test_an_exception_escaping_a_command_exits_2_in_one_line(monkeypatch, capsys):
    from xlalens.analyzers.cli import check

    def broken(args):
        raise KeyError("boom")

    monkeypatch.setattr(check, "_run_check", broken)
    assert main(["check", "x.py"]) == 2
    err = capsys.readouterr().err
    assert "internal error: KeyError" in err and "Traceback" not in err


VALID_DEEP = {
    "sum": "import jax\n\n@jax.jit\ndef f(a):\n    return " + " + ".join(["a"] * 500) + "\n",
    "elif": "import jax\n\n@jax.jit\ndef f(x, n):\n    if n == 0:\n        return x\n"
    + "".join(f"    elif n == {i}:\n        return x + {i}\n" for i in range(1, 197))
    + "    return x\n",
    "at_chain": "import jax.numpy as jnp\n\nx = jnp.zeros(3)\ny = x" + ".at[0].set(1)" * 199 + "\n",
    "binary_chain": "import jax\nx = " + " * ".join(["2"] * 2000) + "\n",
}


@pytest.mark.parametrize("name", sorted(VALID_DEEP))
def test_deep_code_that_python_compiles_is_analyzed(name):
    text = VALID_DEEP[name]
    compile(text, name, "exec")
    codes = [d.code for d in check_source(text, f"{name}.py")]
    assert not [c for c in codes if c.startswith("E9")], codes


@pytest.mark.parametrize(
    "text",
    [
        "import jax\nx = " + " + ".join(["a"] * 50_000) + "\n",  # RecursionError in the parser
        "import jax\nx = " + "-" * 10_000 + "1\n",  # MemoryError: the parser's stack overflows
    ],
    ids=["recursion", "parser-stack"],
)
def test_code_too_deep_for_python_is_over_the_limit(text):
    [limit] = check_source(text, "deep.py")
    assert limit.code == "E903" and "too deeply" in limit.message


def test_a_file_over_the_size_limit_is_not_analyzed(monkeypatch, code):
    monkeypatch.setattr(pipeline, "MAX_FILE_CHARS", 100)
    [limit] = check_source(code.JIT_IF + "#" * 200 + "\n", "big.py")
    assert limit.code == "E903" and "over the limit of 100" in limit.message


NEVER_VALID = {
    "named_escape": "import jax\nx = '\\N{NO SUCH CHARACTER}'\n",
    "bytes": "import jax\nx = b'\u00e9'\n",
    "double_bom": "\ufeffimport jax\n",
    "digits": "import jax\nx = " + "1" * 4400 + "\n",
    "brackets": "import jax\nx = " + "(" * 1000 + "1" + ")" * 1000 + "\n",
    "newer_and_bad_escape": "import jax\ntype A = int\nx = '\\N{NO SUCH CHARACTER}'\n",
    "newer_and_bytes": "import jax\ntype A = int\nx = b'\u00e9'\n",
}


@pytest.mark.parametrize("name", sorted(NEVER_VALID))
def test_code_no_python_accepts_is_a_syntax_error(name):
    assert [d.code for d in check_source(NEVER_VALID[name], f"{name}.py")] == ["E999"]


@pytest.mark.parametrize(
    "cookie",
    ["rot13", "hex", "uu", "no-such-codec"],
)
def test_any_coding_cookie_problem_is_a_file_diagnostic(tmp_path, cookie, capsys):
    data = f"# -*- coding: {cookie} -*-\nimport jax\n".encode()
    file = tmp_path / "m.py"
    file.write_bytes(data)
    [error] = runner.check_paths([str(file)], Settings(), jobs=1).diagnostics
    assert error.code == "E902"
    [from_stdin] = runner.check_stdin(data, "-", Settings()).diagnostics
    assert from_stdin.code == "E902"
    assert main(["annotate", str(file)]) == 2
    assert "m.py" in capsys.readouterr().err


def test_noqa_works_in_a_file_with_carriage_return_line_endings(code):
    silenced = code.JIT_IF.replace("if x > 0:", "if x > 0:  # noqa: JX101").replace("\n", "\r")
    assert check_source(silenced, "cr.py") == []
    assert [d.code for d in check_source(code.JIT_IF.replace("\n", "\r"), "cr.py")] == ["JX101"]
