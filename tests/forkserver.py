"""Run oracle cases in forked children of a process that has already imported the heavy libraries.

Importing JAX with flax, equinox and optax takes 2-4 s, and torch with torch_xla 5-10 s; the cases
themselves mostly take well under a second. Starting one interpreter per case spent most of the
oracle tiers' time on imports. A fork server imports the libraries once, without touching a
device (no JAX backend, no PJRT client, no thread), then forks one child per case: the child
starts from that state, the same state a fresh ``python harness.py CASE`` reaches after its
imports, runs the harness in it and exits. Nothing a case does reaches the next case.

A case that sets environment variables read when a library is imported (``XLA_FLAGS``,
``JAX_ENABLE_X64``, ``XLA_USE_BF16``...) would see the libraries already imported, so the tests
run those in a fresh interpreter (:func:`needs_fresh_process`); ``XLALENS_ORACLE_FRESH=1`` runs
every case that way, to compare the two.

Run as a script, this file is the server (``python forkserver.py HARNESS MODULE...``, standard
library only, so it runs under any oracle interpreter): it reads one JSON request per line on
stdin and answers one JSON line on stdout. Imported, it gives the client, :class:`ForkServerPool`.
"""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

_ENVIRON_WRITE = re.compile(r"\benviron\b(?!\s*\[\s*[\"']XLALENS_ORACLE_STEPS[\"']\s*\])(?!\.get\(\s*[\"']XLALENS_)")


def needs_fresh_process(source: str) -> bool:
    """Whether a case touches the environment beyond reading its step count.

    Examples:
        >>> needs_fresh_process('STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])')
        False
        >>> needs_fresh_process('os.environ["XLA_USE_BF16"] = "1"')
        True
    """
    return _ENVIRON_WRITE.search(source) is not None


def fresh_processes_forced() -> bool:
    """``XLALENS_ORACLE_FRESH=1`` asks for one interpreter per case, as before the fork server."""
    return os.environ.get("XLALENS_ORACLE_FRESH") == "1"


@dataclass(frozen=True, slots=True)
class Finished:
    """How one case's child ended: its exit status (negative: killed by that signal) and output."""

    returncode: int
    stdout: str
    stderr: str


# The server side.


def _load_harness(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("xlalens_oracle_harness", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _child(harness: ModuleType, harness_path: str, request: dict[str, object], out: int, err: int) -> None:
    """Become the case: never returns."""
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        for name, value in dict(request.get("env", {})).items():  # type: ignore[call-overload]
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        os.chdir(str(request["cwd"]))
        signal.alarm(int(request["timeout"]))  # type: ignore[call-overload]
        code = int(harness.main([harness_path, str(request["case"])]) or 0)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            atexit._run_exitfuncs()  # what a fresh interpreter would run on its way out
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _run_forked(harness: ModuleType, harness_path: str, request: dict[str, object]) -> dict[str, object]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(harness, harness_path, request, out.fileno(), err.fileno())
        _, status = os.waitpid(pid, 0)
        returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {
            "returncode": returncode,
            "stdout": out.read().decode("utf-8", "replace"),
            "stderr": err.read().decode("utf-8", "replace"),
        }


def serve(harness_path: str, modules: list[str]) -> int:
    """Import ``modules``, then answer requests on stdin until it closes."""
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    # Whatever the imports print goes to stderr, never into the replies.
    os.dup2(2, 1)
    for name in modules:
        importlib.import_module(name)
    harness = _load_harness(harness_path)
    replies.write(json.dumps({"ready": True}) + "\n")
    replies.flush()
    for line in sys.stdin:
        if line.strip():
            replies.write(json.dumps(_run_forked(harness, harness_path, json.loads(line))) + "\n")
            replies.flush()
    return 0


# The client side.


def run_case(
    servers: ForkServerPool | None,
    python: str,
    harness: Path,
    case: Path,
    *,
    env: Mapping[str, str],
    settings: Mapping[str, str | None],
    cwd: Path,
    timeout_s: int,
) -> Finished:
    """Run ``python harness CASE`` with ``env`` and the case's ``settings`` on top (``None``: unset).

    The case runs forked from one of ``servers`` (started with ``env``), or in a fresh interpreter
    when there are none, when ``XLALENS_ORACLE_FRESH=1``, or when it writes the environment.
    """
    fresh = servers is None or fresh_processes_forced() or needs_fresh_process(case.read_text(encoding="utf-8"))
    if not fresh:
        assert servers is not None
        return servers.run(case, dict(settings), cwd, timeout_s)
    full = dict(env)
    for name, value in settings.items():
        if value is None:
            full.pop(name, None)
        else:
            full[name] = value
    try:
        proc = subprocess.run(
            [python, str(harness), str(case)],
            capture_output=True,
            text=True,
            env=full,
            cwd=str(cwd),
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        partial = exc.stdout.decode("utf-8", "replace") if isinstance(exc.stdout, bytes) else exc.stdout or ""
        return Finished(-1, partial, f"timed out after {timeout_s} s")
    return Finished(proc.returncode, proc.stdout, proc.stderr)


class ForkServer:
    """One server process, used by one thread at a time."""

    def __init__(self, python: str, harness: Path, modules: tuple[str, ...], env: dict[str, str], cwd: Path) -> None:
        # The server's own output (import warnings, a crash) is kept for the error message.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._proc = subprocess.Popen(
            [python, str(Path(__file__).resolve()), str(harness), *modules],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            env=env,
            cwd=str(cwd),
        )
        ready = self._proc.stdout.readline() if self._proc.stdout else ""
        if not ready:
            raise RuntimeError(f"the oracle fork server did not start:\n{self._server_log()}")

    def _server_log(self) -> str:
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")[-3000:]

    def run(self, case: Path, env: dict[str, str | None], cwd: Path, timeout_s: int) -> Finished:
        """Run ``case`` in a child with ``env`` applied on top of the server's environment."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        request = {"case": str(case), "env": env, "cwd": str(cwd), "timeout": timeout_s}
        try:
            self._proc.stdin.write(json.dumps(request) + "\n")
            self._proc.stdin.flush()
            line = self._proc.stdout.readline()
        except OSError:
            line = ""
        if not line:
            raise RuntimeError(f"the oracle fork server died:\n{self._server_log()}")
        reply = json.loads(line)
        stderr = str(reply["stderr"])
        if reply["returncode"] == -signal.SIGALRM:
            stderr += f"\ntimed out after {timeout_s} s"
        return Finished(int(reply["returncode"]), str(reply["stdout"]), stderr)

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
        self._log.close()


class ForkServerPool:
    """Up to ``size`` servers, started on first use, shared by the threads that run cases."""

    def __init__(
        self, size: int, python: str, harness: Path, modules: tuple[str, ...], env: dict[str, str], cwd: Path
    ) -> None:
        self._args = (python, harness, modules, env, cwd)
        self._idle: queue.SimpleQueue[ForkServer] = queue.SimpleQueue()
        self._started: list[ForkServer] = []
        self._lock = threading.Lock()
        self._size = size

    def _take(self) -> ForkServer:
        while True:
            with self._lock:
                if self._idle.empty() and len(self._started) < self._size:
                    self._started.append(server := ForkServer(*self._args))
                    return server
            try:
                # Not forever: a server that dies is not put back, and its place may open meanwhile.
                return self._idle.get(timeout=1.0)
            except queue.Empty:
                continue

    def run(self, case: Path, env: dict[str, str | None], cwd: Path, timeout_s: int) -> Finished:
        """Run one case on an idle server (a server that died is replaced for the next case)."""
        server = self._take()
        try:
            finished = server.run(case, env, cwd, timeout_s)
        except RuntimeError:
            with self._lock:
                self._started.remove(server)
            server.close()
            raise
        self._idle.put(server)
        return finished

    def close(self) -> None:
        with self._lock:
            for server in self._started:
                server.close()
            self._started.clear()


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1], sys.argv[2:]))
