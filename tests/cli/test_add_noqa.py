"""``check --add-noqa`` through the supervised runner, run as the real command in a subprocess.

A file the analyzer stops on (a check past the time limit, a worker that crashes) is reported and
left as it was, while every other file still gets its comments; files are written in their own
encoding and line endings, and never over an edit made while the run was going on.

The faults come from a ``sitecustomize`` put on the subprocess's ``PYTHONPATH``: it lowers the time
limit to one second and makes the check of a file hang, crash its process or edit the file,
depending on the file's name. Workers, forked or spawned, load it too.
"""

from __future__ import annotations

import multiprocessing
import shutil
import textwrap

import pytest

from .conftest import JIT_IF, JIT_PRINT, Project

needs_fork = pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="needs forked workers")

FAULTS = textwrap.dedent(
    '''\
    """Test faults for xlalens, chosen by file name (see tests/cli/test_add_noqa.py)."""
    import os
    import signal
    import time

    from xlalens.analyzers.engine import pipeline
    from xlalens.analyzers.project import runner

    pipeline.TIME_LIMIT_S = 1.0
    runner._GRACE_S = 0.5
    _check_python = pipeline._check_python


    def _faulty(source, path, settings, rules):
        name = os.path.basename(path)
        if name.endswith("hang.py"):
            while True:  # sleeps in Python code, so the engine's time limit can interrupt it
                time.sleep(0.05)
        if name.endswith("crash.py"):
            os.kill(os.getpid(), signal.SIGSEGV)
        if name.endswith("edited.py"):
            with open(path, "a", encoding="utf-8") as file:
                file.write("# edited while xlalens ran\\n")
        return _check_python(source, path, settings, rules)


    pipeline._check_python = _faulty
    '''
)

JIT_IF_NOQA = JIT_IF.replace("    if x > 0:\n", "    if x > 0:  # noqa: JX101\n")
JIT_PRINT_NOQA = JIT_PRINT.replace("    print(x)\n", "    print(x)  # noqa: JX106\n")


def _faulty_run(project: Project, *args: str) -> tuple[int, str]:
    """Run ``xlalens check --add-noqa --no-cache ARGS`` with the faults loaded; exit code and stderr."""
    hooks = project.root.parent / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "sitecustomize.py").write_text(FAULTS, encoding="utf-8")
    result = project.run("check", "--add-noqa", "--no-cache", *args, env={"PYTHONPATH": str(hooks)})
    return result.returncode, result.stderr


def _contents(project: Project) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(project.root.glob("*.py"))}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_that_times_out_is_reported_and_left_untouched(project, require_rules, jobs):
    require_rules("JX101", "JX106")
    project.write("a_hang.py", JIT_IF)
    project.write("b.py", JIT_IF)
    project.write("c.py", JIT_PRINT)
    project.write("d_edited.py", JIT_IF)

    status, stderr = _faulty_run(project, "--jobs", jobs)

    assert status == 2, stderr
    assert (project.root / "a_hang.py").read_text(encoding="utf-8") == JIT_IF
    assert "error: a_hang.py: E900 internal error while checking this file" in stderr
    assert "ran longer than 1 s" in stderr
    assert (project.root / "b.py").read_text(encoding="utf-8") == JIT_IF_NOQA
    assert (project.root / "c.py").read_text(encoding="utf-8") == JIT_PRINT_NOQA
    # Edited after it was read: the edit stays, no comment is written over it.
    assert (project.root / "d_edited.py").read_text(encoding="utf-8") == JIT_IF + "# edited while xlalens ran\n"
    assert "warning: d_edited.py: noqa comments not written: the file changed since xlalens read it" in stderr
    assert stderr.strip().endswith("Added 2 noqa directives.")


@needs_fork
def test_a_file_whose_worker_crashes_is_reported_and_left_untouched(project, require_rules):
    require_rules("JX101", "JX106")
    project.write("a_crash.py", JIT_IF)
    project.write("b.py", JIT_IF)
    project.write("c.py", JIT_PRINT)

    status, stderr = _faulty_run(project, "--jobs", "2")

    assert status == 2, stderr
    assert "error: a_crash.py: E900" in stderr and "SIGSEGV" in stderr
    assert (project.root / "a_crash.py").read_text(encoding="utf-8") == JIT_IF
    assert (project.root / "b.py").read_text(encoding="utf-8") == JIT_IF_NOQA
    assert (project.root / "c.py").read_text(encoding="utf-8") == JIT_PRINT_NOQA
    assert stderr.strip().endswith("Added 2 noqa directives.")


def test_two_jobs_write_what_one_job_writes(project, tmp_path, require_rules):
    require_rules("JX101", "JX106")
    for index in range(6):
        project.write(f"m{index}.py", JIT_IF if index % 2 else JIT_PRINT)
    project.write("m_hang.py", JIT_IF)
    other = Project(tmp_path / "copy" / "project")
    shutil.copytree(project.root, other.root)

    serial = _faulty_run(project, "--jobs", "1")
    parallel = _faulty_run(other, "--jobs", "2")

    assert serial == parallel
    assert _contents(project) == _contents(other)
    expected = {f"m{index}.py": (JIT_IF_NOQA if index % 2 else JIT_PRINT_NOQA).encode() for index in range(6)}
    assert _contents(project) == {**expected, "m_hang.py": JIT_IF.encode()}
    assert serial[1].strip().endswith("Added 6 noqa directives.")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_crlf_and_bom_files_keep_them(project, require_rules, jobs):
    require_rules("JX101", "JX106")
    project.write("a_hang.py", JIT_IF)
    project.write_bytes("bom.py", b"\xef\xbb\xbf" + JIT_IF.replace("\n", "\r\n").encode())
    project.write_bytes("crlf.py", JIT_PRINT.replace("\n", "\r\n").encode())

    status, stderr = _faulty_run(project, "--jobs", jobs)

    assert status == 2, stderr
    assert (project.root / "bom.py").read_bytes() == b"\xef\xbb\xbf" + JIT_IF_NOQA.replace("\n", "\r\n").encode()
    assert (project.root / "crlf.py").read_bytes() == JIT_PRINT_NOQA.replace("\n", "\r\n").encode()
    assert stderr.strip().endswith("Added 2 noqa directives.")
