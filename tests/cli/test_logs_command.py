"""``xlalens logs``: runtime evidence from real torch_xla and JAX logs, reported at the user's lines.

The logs in ``data/logs`` were produced by running the scripts next to them: ``torch_xla_train.py``
under torch_xla 2.9.0 (the oracle venv) with ``PJRT_DEVICE=CPU PT_XLA_DEBUG_LEVEL=2
PT_XLA_DEBUG_FILE=...``, and ``jax_retrace.py`` with ``JAX_EXPLAIN_CACHE_MISSES=1
JAX_LOG_COMPILES=1``; the directory part of the paths in them was removed, so they resolve against
``--root``.
"""

from __future__ import annotations

import json
from pathlib import Path

from xlalens.analyzers.inputs.runtime_logs import log_diagnostics, torch_xla_events

DATA = Path(__file__).resolve().parent / "data" / "logs"


def _found(name: str) -> list[tuple[str, int, str]]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [(Path(d.path).name, d.line, d.code) for d in log_diagnostics(text, str(DATA / name), str(DATA))]


def test_torch_xla_log_maps_host_reads_and_recompiles_to_lines() -> None:
    # Line 11 reads loss.item() before the sync; line 16 runs two batch sizes, so two graphs.
    assert _found("torch_xla_train.log") == [
        ("torch_xla_train.py", 11, "LX101"),
        ("torch_xla_train.py", 11, "LX201"),
        ("torch_xla_train.py", 13, "LX201"),
        ("torch_xla_train.py", 16, "LX202"),
    ]


def test_torch_xla_events_keep_cause_hash_and_frames() -> None:
    events = list(torch_xla_events((DATA / "torch_xla_train.log").read_text(encoding="utf-8").splitlines()))
    assert len(events) == 12  # 4 compilations and 8 executions
    first = events[0]
    assert first.kind == "compilation" and first.graph_hash
    assert first.cause == "most likely user code trying to access tensor value before torch_xla.sync"
    assert first.user_frame() == ("<module>", "torch_xla_train.py", 11)


def test_jax_log_maps_cache_misses_to_the_call() -> None:
    # Three sizes: the first trace is what every jitted function does; the two after it are retraces.
    found = _found("jax_retrace.log")
    assert found == [("jax_retrace.py", 11, "LX301")] * 2
    text = (DATA / "jax_retrace.log").read_text(encoding="utf-8")
    messages = [d.message for d in log_diagnostics(text, "jax_retrace.log", str(DATA))]
    assert "now f32[4] and before f32[3]" in messages[0]
    assert all("never seen" not in message for message in messages)


def test_jax_compiles_without_explanations_are_reported_in_the_log() -> None:
    text = (DATA / "jax_retrace.log").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if "Compiling" in line]
    found = log_diagnostics("\n".join(lines), "run.log", str(DATA))
    assert {(d.path, d.code) for d in found} == {("run.log", "LX302")}
    assert any("`jit(step)` 3 times" in d.message for d in found)


def test_command_prints_check_formats(project) -> None:
    log = DATA / "torch_xla_train.log"
    result = project.run("logs", str(log), "--root", str(DATA), "--output-format", "json")
    assert result.returncode == 1, result.stderr
    rows = [(Path(item["filename"]).name, item["location"]["row"], item["code"]) for item in json.loads(result.stdout)]
    assert ("torch_xla_train.py", 11, "LX101") in rows
    concise = project.run("logs", str(log), "--root", str(DATA), "--exit-zero")
    assert concise.returncode == 0 and "torch_xla_train.py:16:1: LX202" in concise.stdout


def test_unreadable_file_is_a_usage_error(project) -> None:
    result = project.run("logs", "missing.log")
    assert result.returncode == 2 and "cannot read missing.log" in result.stderr


def test_each_runtime_finding_links_to_the_page_on_its_own_runtime(project) -> None:
    urls = {}
    for name in ("torch_xla_train.log", "jax_retrace.log"):
        result = project.run("logs", str(DATA / name), "--root", str(DATA), "--output-format", "json")
        urls[name] = {item["url"] for item in json.loads(result.stdout)}
    assert urls["torch_xla_train.log"] == {"http://127.0.0.1:8711/torch-xla-lazy-tensor#reading-the-debug-output"}
    assert urls["jax_retrace.log"] == {"http://127.0.0.1:8711/jit-caching#reading-cache-miss-explanations"}


def test_log_codes_can_be_ignored_by_code_or_prefix(project) -> None:
    log = DATA / "torch_xla_train.log"
    found = project.run("logs", str(log), "--root", str(DATA), "--output-format", "json")
    codes = {item["code"] for item in json.loads(found.stdout)}
    assert {"LX101", "LX202"} <= codes
    kept = project.run("logs", str(log), "--root", str(DATA), "--output-format", "json", "--ignore", "LX2")
    assert {item["code"] for item in json.loads(kept.stdout)} == codes - {"LX201", "LX202"}
    wrong = project.run("logs", str(log), "--ignore", "JX101")
    assert wrong.returncode == 2 and "LX301" in wrong.stderr and "Traceback" not in wrong.stderr


def test_a_log_with_nothing_recognised_says_so_instead_of_passing(project) -> None:
    project.write("run.log", "epoch 1 loss 0.31\nepoch 2 loss 0.27\n")
    result = project.run("logs", "run.log")
    assert result.returncode == 0 and result.stdout == ""
    assert "No torch_xla (PT_XLA_DEBUG_LEVEL=2) or JAX" in result.stderr


def test_a_function_compiled_once_is_not_a_finding() -> None:
    text = (DATA / "jax_retrace.log").read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if "Compiling" in line)
    assert log_diagnostics(first, "run.log", str(DATA)) == []
