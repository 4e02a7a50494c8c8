"""Benchmark the language server through the protocol: latency of diagnostics, hover and code actions, and memory.

The server runs as a real process (``python -m xlalens.server``) and is driven by pygls's client
over stdio, the way an editor drives it. For files of about 200, 1,000 and 4,000 lines it times:

- ``didChange`` -> ``publishDiagnostics`` for that version (a client that is pushed diagnostics),
- ``didChange`` + ``textDocument/diagnostic`` -> the report (a client that pulls, like VS Code),
- ``didChange`` to a text with a syntax error -> ``publishDiagnostics`` (typing mid-statement),
- ``textDocument/hover`` on a finding, and
- ``textDocument/codeAction`` on a finding,

each with the debounce set to 0, so the figures are the server's own work. Then it opens 50
documents and reads the server's resident memory. See ``benchmarks/README.md``.

The files are real: the corpus file (``corpus.py``) closest to each size among those at least as
dense in code (AST nodes per line) as the median corpus file, with a fixed block of JAX code with
findings appended (and its three imports prepended) so that there is something to hover and fix. Without the
corpus (``--source generated``, or when it cannot be fetched) they are that block repeated with
renamed functions.

Usage::

    python benchmarks/bench_lsp.py
    python benchmarks/bench_lsp.py --iterations 50 --json lsp.json
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

SIZES = (200, 1000, 4000)
"""Target file sizes in lines."""
OPEN_DOCUMENTS = 50
DIAGNOSTICS_P95_BUDGET_MS = 100.0
"""1,000-line file: p95 from a change to its diagnostics."""
REQUEST_P95_BUDGET_MS = 30.0
"""Hover and code action round trips, p95."""
RSS_BUDGET_MB = 300.0
"""Resident memory with 50 open documents."""
TIMEOUT_S = 60.0

FINDINGS = """

@jax.jit
def bench_loss(params, x):
    loss = jnp.mean((x @ params) ** 2)
    print("loss:", loss)
    if loss > 10.0:
        loss = jnp.log(loss)
    return loss


@jax.jit
def bench_to_numpy(x):
    return np.asarray(x)


bench_weights = jnp.zeros((4, 4))
bench_weights[0, 0] = 1.0
"""
"""Appended to each file: JX106 (with a fix), JX101, JX103, JX601 (with a fix)."""

IMPORTS = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"


@dataclass
class Measured:
    """The latencies measured for one file."""

    name: str
    lines: int
    push_ms: list[float] = field(default_factory=list)
    pull_ms: list[float] = field(default_factory=list)
    broken_ms: list[float] = field(default_factory=list)
    hover_ms: list[float] = field(default_factory=list)
    code_action_ms: list[float] = field(default_factory=list)
    diagnostics: int = 0


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(fraction * len(ordered) + 0.5)))
    return ordered[rank - 1]


# -- the files ------------------------------------------------------------------------------------


def with_findings(text: str) -> str:
    """``text`` with the imports the findings block needs and the block itself."""
    return IMPORTS + text.rstrip("\n") + "\n" + FINDINGS


def generated(lines: int, seed: int = 0) -> str:
    """JAX-like code of about ``lines`` lines: the findings block repeated with renamed functions."""
    blocks = []
    count = 0
    index = seed
    while count < lines:
        block = FINDINGS.replace("bench_", f"bench{index}_")
        blocks.append(block)
        count += block.count("\n")
        index += 1
    return IMPORTS + "".join(blocks)


def corpus_files() -> list[Path] | None:
    """Every ``.py`` file of the pinned corpus, fetching it if needed; ``None`` when it cannot be had."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from corpus import ensure_corpus, python_files

        directories = ensure_corpus()
    except Exception as error:  # no network, pip failing...: measure on generated files instead
        print(f"corpus unavailable ({error}); using generated files", file=sys.stderr)
        return None
    return [path for directory in directories.values() for path in python_files(directory)]


def pick_files(source: str) -> tuple[list[tuple[str, str]], list[str], str]:
    """The benchmark files ``(name, text)`` by size, 50 texts to open together, and what they are."""
    files = corpus_files() if source == "corpus" else None
    if files is None:
        sized = [(f"generated-{n}", generated(n)) for n in SIZES]
        many = [generated(200 + 20 * i, seed=i * 100) for i in range(OPEN_DOCUMENTS)]
        return sized, many, "generated: the findings block repeated"
    texts = {path: path.read_text(encoding="utf-8", errors="replace") for path in files}
    lines = {path: text.count("\n") for path, text in texts.items()}
    density = {path: _nodes_per_line(text) for path, text in texts.items()}
    # A file that is mostly docstrings would flatter the figures: only files at least as dense in
    # code as the median corpus file compete for each size.
    typical = statistics.median(density.values())
    dense = [path for path in texts if density[path] >= typical]
    sized = []
    for target in SIZES:
        path = min(dense, key=lambda p: (abs(lines[p] - target), str(p)))
        sized.append((f"{path.parent.name}/{path.name}", with_findings(texts[path])))
    # The 50 largest files: the memory figure is then an upper bound for a typical session.
    largest = sorted(texts, key=lambda p: (-lines[p], str(p)))[:OPEN_DOCUMENTS]
    return sized, [with_findings(texts[p]) for p in largest], "corpus files with the findings block appended"


def _nodes_per_line(text: str) -> float:
    try:
        nodes = sum(1 for _ in ast.walk(ast.parse(text)))
    except (SyntaxError, ValueError):
        return 0.0
    return nodes / max(1, text.count("\n"))


# -- the client -----------------------------------------------------------------------------------


def capabilities(pull: bool) -> types.ClientCapabilities:
    """What a modern editor advertises for what is measured; ``pull`` adds pull diagnostics."""
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, code_description_support=True, data_support=True
            ),
            diagnostic=types.DiagnosticClientCapabilities() if pull else None,
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=["quickfix", "source"])
                ),
                is_preferred_support=True,
                data_support=True,
                resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"]),
            ),
        ),
    )


class Client:
    """A pygls client that records when each version's diagnostics arrive."""

    def __init__(self, pull: bool) -> None:
        self.pull = pull
        self.client = LanguageClient("xlalens-bench", "1")
        self.arrived: dict[tuple[str, int | None], types.PublishDiagnosticsParams] = {}
        self.changed = asyncio.Event()
        self.versions: dict[str, int] = {}

        # pygls marks handlers with attributes, which a bound method cannot take: register a function.
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.arrived[(params.uri, params.version)] = params
            self.changed.set()

        self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(published)

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "xlalens.server")
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=capabilities(self.pull), initialization_options={"debounceMs": 0, "inlayHints": False}
            )
        )
        self.client.initialized(types.InitializedParams())

    async def stop(self) -> None:
        await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT_S)
        self.client.exit(None)
        await asyncio.wait_for(self.client.stop(), TIMEOUT_S)

    def open(self, uri: str, text: str) -> None:
        self.versions[uri] = 1
        item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))

    def change(self, uri: str, line: int, text: str) -> int:
        """Replace the end of ``line`` (0-based) with ``text``, as a keystroke does; return the version."""
        self.versions[uri] += 1
        position = types.Position(line=line, character=0)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=position, end=types.Position(line=line, character=10_000)), text=text
                    )
                ],
            )
        )
        return self.versions[uri]

    async def pushed(self, uri: str, version: int) -> list[types.Diagnostic]:
        while (uri, version) not in self.arrived:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), TIMEOUT_S)
        return list(self.arrived[(uri, version)].diagnostics)

    async def pulled(self, uri: str) -> list[types.Diagnostic]:
        report = await self.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        return list(report.items)

    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        return await (self.pulled(uri) if self.pull else self.pushed(uri, self.versions[uri]))


def elapsed_ms(start: float) -> float:
    """Milliseconds since ``start`` (a ``time.perf_counter()`` reading)."""
    return (time.perf_counter() - start) * 1000


# -- measurements -------------------------------------------------------------------------------------


async def measure_file(name: str, text: str, iterations: int) -> Measured:
    """All latencies for one file, pushed and pulled."""
    measured = Measured(name, text.count("\n"))
    uri = f"file:///bench/{name.replace('/', '_')}"
    last_line = text.count("\n")  # the empty line after the findings block: edits there change no finding
    for pull in (False, True):
        client = Client(pull)
        await client.start()
        client.open(uri, text)
        diagnostics = await client.diagnostics(uri)
        measured.diagnostics = len(diagnostics)
        for i in range(iterations):
            version = client.change(uri, last_line, f"# edit {i}")
            start = time.perf_counter()
            if pull:
                await client.pulled(uri)
                measured.pull_ms.append(elapsed_ms(start))
            else:
                await client.pushed(uri, version)
                measured.push_ms.append(elapsed_ms(start))
        if not pull:
            for i in range(iterations):
                # A syntax error mid-edit: the engine then also asks libcst whether the file is valid
                # for a newer Python, and the server keeps the last good diagnostics above the edit.
                version = client.change(uri, last_line, f"broken_{i} = (")
                start = time.perf_counter()
                await client.pushed(uri, version)
                measured.broken_ms.append(elapsed_ms(start))
                await client.pushed(uri, client.change(uri, last_line, ""))
            target = next(d for d in diagnostics if d.code == "JX106")
            document = types.TextDocumentIdentifier(uri=uri)
            hover = types.HoverParams(text_document=document, position=target.range.start)
            action = types.CodeActionParams(
                text_document=document, range=target.range, context=types.CodeActionContext(diagnostics=[target])
            )
            for _ in range(iterations):
                start = time.perf_counter()
                await client.client.text_document_hover_async(hover)
                measured.hover_ms.append(elapsed_ms(start))
                start = time.perf_counter()
                await client.client.text_document_code_action_async(action)
                measured.code_action_ms.append(elapsed_ms(start))
        await client.stop()
    return measured


def _child_rss_mb(kind: str) -> float:
    """``VmRSS`` or ``VmHWM`` of this process's one ``xlalens.server`` child, in MiB (Linux)."""
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == me and b"xlalens.server" in command:
            for line in Path(f"/proc/{entry}/status").read_text().splitlines():
                if line.startswith(f"{kind}:"):
                    return int(line.split()[1]) / 1024
    raise RuntimeError("server process not found")


async def measure_memory(texts: Sequence[str]) -> dict[str, float]:
    """Resident memory of the server after checking ``texts`` as open documents."""
    client = Client(pull=False)
    await client.start()
    idle = _child_rss_mb("VmRSS")
    for index, text in enumerate(texts):
        client.open(f"file:///bench/open_{index}.py", text)
    for index in range(len(texts)):
        await client.pushed(f"file:///bench/open_{index}.py", 1)
    memory = {"idle_mb": idle, "rss_mb": _child_rss_mb("VmRSS"), "peak_mb": _child_rss_mb("VmHWM")}
    memory["lines"] = float(sum(text.count("\n") for text in texts))
    await client.stop()
    return memory


# -- report -----------------------------------------------------------------------------------------


def _cell(values: Sequence[float]) -> str:
    return f"{percentile(values, 0.5):6.1f} / {percentile(values, 0.95):6.1f}"


def report(files: Sequence[Measured], memory: dict[str, float], described: str) -> list[str]:
    """The table and the budget lines."""
    lines = [
        f"xlalens language server, Python {platform.python_version()}, {os.cpu_count()} CPUs; files: {described}",
        "latency in ms, p50 / p95",
        "",
        f"{'file':32} {'lines':>6} {'diags':>5}  {'change->push':>15}  {'change->pull':>15}"
        f"  {'syntax error':>15}  {'hover':>15}  {'code action':>15}",
    ]
    for m in files:
        lines.append(
            f"{m.name[:32]:32} {m.lines:6d} {m.diagnostics:5d}  {_cell(m.push_ms):>15}  {_cell(m.pull_ms):>15}"
            f"  {_cell(m.broken_ms):>15}  {_cell(m.hover_ms):>15}  {_cell(m.code_action_ms):>15}"
        )
    lines += [
        "",
        f"memory: {OPEN_DOCUMENTS} open documents ({memory['lines']:,.0f} lines): RSS {memory['rss_mb']:.0f} MiB"
        f" (peak {memory['peak_mb']:.0f} MiB, idle {memory['idle_mb']:.0f} MiB)",
        "",
        "budgets:",
    ]
    thousand = min(files, key=lambda m: abs(m.lines - 1000))
    worst_diagnostics = max(percentile(thousand.push_ms, 0.95), percentile(thousand.pull_ms, 0.95))
    worst_request = max(percentile(v, 0.95) for m in files for v in (m.hover_ms, m.code_action_ms))
    for label, value, budget, unit in (
        (f"{thousand.lines}-line file, change -> diagnostics p95", worst_diagnostics, DIAGNOSTICS_P95_BUDGET_MS, "ms"),
        ("hover and code action p95 (every size)", worst_request, REQUEST_P95_BUDGET_MS, "ms"),
        (f"RSS with {OPEN_DOCUMENTS} open documents", memory["rss_mb"], RSS_BUDGET_MB, "MiB"),
    ):
        verdict = "ok" if value <= budget else "MISSED"
        lines.append(f"  {label:52} {value:7.1f} {unit} (budget {budget:.0f} {unit})  {verdict}")
    return lines


async def main_async(arguments: argparse.Namespace) -> int:
    sized, many, described = pick_files(arguments.source)
    files = [await measure_file(name, text, arguments.iterations) for name, text in sized]
    memory = await measure_memory(many)
    print("\n".join(report(files, memory, described)))
    if arguments.json:
        data = {"files": [asdict(m) for m in files], "memory": memory, "source": described}
        Path(arguments.json).write_text(json.dumps(data, indent=2), encoding="utf-8")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=40, help="Measurements per row and file (default 40).")
    parser.add_argument(
        "--source", choices=("corpus", "generated"), default="corpus", help="Where the files come from."
    )
    parser.add_argument("--json", metavar="FILE", help="Also write every measurement to FILE.")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
