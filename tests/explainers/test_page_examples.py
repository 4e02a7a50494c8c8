"""The explainer pages: their format, their anchors, and every code example they show.

Each fenced block whose info string is ``python`` must run clean under real JAX on CPU (with
8 fake CPU devices, ``--xla_force_host_platform_device_count=8``, as the JAX oracle runs), and
each ``python raises=Name`` block must raise exactly the exception class ``Name``. Every block
runs as a complete program in a process of its own (a page example must not depend on a config
change or a cache filled by the block before it): a forked child of a fork server that has
imported JAX (``tests/forkserver.py``), or a fresh interpreter for a block that writes the
environment; all selected blocks are queued together in a small thread pool, and each block is still its own test id
(``tracing.md:block3`` is the third fenced block of ``tracing.md``).

A ``python torch_xla`` block (or ``python torch_xla raises=Name``) runs the same way under the
torch_xla oracle venv's Python with ``PJRT_DEVICE=CPU``; without that venv it fails, or skips where
the torch_xla tier skips (``XLALENS_SKIP_TORCH_XLA=1`` outside CI).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from tests import forkserver
from tests.oracle_torch_xla.test_oracle_torch_xla import oracle_python, require_oracle

ROOT = Path(__file__).resolve().parents[2]
PAGES_DIR = ROOT / "explainers" / "pages"
PAGES = sorted(PAGES_DIR.glob("*.md"))
TIMEOUT_S = 180

REQUIRED_ANCHORS: dict[str, list[str]] = {
    "tracing": [
        "what-a-tracer-is",
        "what-is-static-inside-jit",
        "python-control-flow",
        "concretization",
        "numpy-on-tracers",
        "static-shapes",
        "data-dependent-shapes",
        "printing",
        "tracer-leaks",
        "jit-on-methods",
        "grad-without-jit",
        "sources",
    ],
    "in-place-updates": ["item-assignment", "the-at-property", "performance-under-jit", "sources"],
    "jit-caching": [
        "cache-keys",
        "weak-types",
        "static-arguments",
        "unhashable-static-arguments",
        "static-values-that-change-every-iteration",
        "function-identity",
        "jit-in-a-loop",
        "jit-inside-a-function",
        "shapes-that-change-every-iteration",
        "python-loops-under-jit",
        "the-six-caches",
        "reading-cache-miss-explanations",
        "counting-compiles",
        "persistent-cache",
        "sources",
    ],
    "torch-xla-lazy-tensor": [
        "the-lazy-graph",
        "sync-points",
        "host-reads-in-the-step",
        "control-flow-on-tensor-values",
        "step-markers-and-loaders",
        "recompilation-sources",
        "data-dependent-shapes",
        "shapes-that-change-every-step",
        "special-scalars",
        "counting-the-cost",
        "reading-the-debug-output",
        "reading-the-metrics-report",
        "matching-torch-and-torch-xla-releases",
        "sources",
    ],
    "silent-failures": [
        "nan-gradients-through-where",
        "float64-without-x64",
        "configuration-after-the-backend-starts",
        "large-captured-constants",
        "optimizer-built-before-the-model-moves",
        "checkpoints-saved-from-the-device",
        "sources",
    ],
    "randomness": ["keys-are-values", "reusing-a-key", "splitting-and-folding-in", "keys-in-loops", "sources"],
    "async-dispatch-and-donation": [
        "asynchronous-dispatch",
        "timing-jax-code",
        "buffer-donation",
        "use-after-donation",
        "sources",
    ],
    "pallas-blockspec": [
        "the-grid-is-a-loop-nest",
        "block-arithmetic",
        "block-shapes-have-the-arrays-rank",
        "index-maps-take-one-index-per-grid-axis",
        "index-maps-return-one-index-per-block-dimension",
        "index-maps-return-block-indices",
        "blocks-that-do-not-divide-the-array",
        "grids-that-do-not-cover-the-array",
        "the-tpu-block-shape-rule",
        "double-buffering-and-vmem",
        "one-spec-per-operand",
        "interpret-mode",
        "sources",
    ],
    "control-flow": [
        "loop-carry-dtype-changes",
        "loop-carry-shape-changes",
        "loop-carry-structure-changes",
        "branch-output-types-differ",
        "reverse-mode-through-while-loop",
        "scan-leading-axes-disagree",
        "predicate-is-not-a-boolean-scalar",
        "sources",
    ],
    "sharding": [
        "the-mesh",
        "mesh-and-devices",
        "axis-types",
        "partition-specs",
        "axis-names",
        "each-axis-once",
        "spec-length",
        "divisibility",
        "shard-map-specs",
        "replication-and-check-vma",
        "shard-map-spelling",
        "torch-xla-spmd",
        "torch-xla-mesh",
        "torch-xla-spec-length",
        "torch-xla-spec-axes",
        "torch-xla-axis-once",
        "sources",
    ],
}
REQUIRED_ANCHORS["upgrading"] = [
    "how-findings-are-judged",
    "the-upgrade-path",
    "pytree-aliases",
    "pjit",
    "xla-computation",
    "xmap",
    "host-callback",
    "array-device-methods",
    "clip-keywords",
    "jit-keyword-options",
    "mesh-context",
    "replicated-and-sharded-device-puts",
    "checkpoint-aliases",
    "jax-core-internals",
    "pvary",
    "numpy-aliases",
    "functional-index-updates",
    "blockspec-argument-order",
    "pallas-renames",
    "pallas-tpu-names",
    "mark-step",
    "xla-device",
    "world-size-and-ordinal",
    "xla-sharding-module",
    "pjrt-module",
    "bf16-environment-variables",
    "dynamo-backend",
    "what-the-upgrade-rules-leave-out",
    "sources",
]
REQUIRED_CALCULATORS: dict[str, set[str]] = {
    "jit-caching": {"retrace"},
    "pallas-blockspec": {"blockspec"},
    "sharding": {"shard-shape"},
}

RAISES_RE = re.compile(r"python(?: torch_xla)? raises=([A-Za-z_][A-Za-z0-9_.]*)")
TORCH_XLA_INFO = "python torch_xla"
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]*")
PYTHON_WORDS = {"python", "python3", "py", "py3"}

# Runs one block as __main__ and writes how it ended to a JSON file (argv[2]), so the block's
# own stdout/stderr cannot be mistaken for the verdict. An exception is reported by class, not
# by parsing the traceback text: some messages span lines that look like exception lines.
RUNNER = """
import json, os, runpy, sys, traceback


def main(argv):
    path = argv[1]
    result = {"raised": None, "qualname": None, "message": "", "traceback": ""}
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            result.update(raised="SystemExit", qualname="SystemExit", message=str(exc.code))
    except BaseException as exc:
        cls = type(exc)
        result.update(
            raised=cls.__name__,
            qualname=f"{cls.__module__}.{cls.__qualname__}",
            message=str(exc),
            traceback=traceback.format_exc(),
        )
    with open(os.path.join(os.path.dirname(path), "result.json"), "w", encoding="utf-8") as handle:
        json.dump(result, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
"""
"""Runs one block (``python runner.py BLOCK.py``) and writes ``result.json`` beside it; also the
fork servers' harness."""
JAX_PRELOADED = ("numpy", "jax", "jax.numpy", "jax.experimental.pallas")
TORCH_XLA_PRELOADED = ("torch", "torch_xla", "torch_xla.core.xla_model", "torch_xla.debug.metrics", "torch_xla.runtime")


def slug(heading: str) -> str:
    """The anchor of a ``##`` heading: lowercase, keep letters/digits/spaces/hyphens, spaces -> '-'."""
    kept = "".join(ch for ch in heading.lower() if ch.isalnum() or ch in " -")
    return kept.replace(" ", "-")


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: str  # file name, e.g. "tracing.md"
    index: int  # 1-based position among the page's fenced blocks
    info: str
    code: str
    line: int  # 1-based line of the opening fence in the page file

    @property
    def test_id(self) -> str:
        return f"{self.page}:block{self.index}"

    @property
    def runnable(self) -> bool:
        return self.info in ("python", TORCH_XLA_INFO) or self.expected is not None

    @property
    def torch_xla(self) -> bool:
        return self.info.startswith(TORCH_XLA_INFO)

    @property
    def expected(self) -> str | None:
        match = RAISES_RE.fullmatch(self.info)
        return match.group(1) if match else None


@dataclass(frozen=True)
class Page:
    """A page split into its front matter and its Markdown body."""

    path: Path
    front_matter: dict[str, str]
    body: str
    body_offset: int  # lines before the body starts

    @property
    def name(self) -> str:
        return self.path.name

    def tokens(self) -> list[Token]:
        return MarkdownIt("commonmark").enable("table").parse(self.body)

    def blocks(self) -> list[Block]:
        fences = [t for t in self.tokens() if t.type == "fence"]
        return [
            Block(
                page=self.name,
                index=i,
                info=t.info.strip(),
                code=t.content,
                line=self.body_offset + (t.map[0] if t.map else 0) + 1,
            )
            for i, t in enumerate(fences, start=1)
        ]

    def headings(self, level: int = 2) -> list[str]:
        tokens = self.tokens()
        return [
            inline_text(tokens[i + 1])
            for i, t in enumerate(tokens)
            if t.type == "heading_open" and t.tag == f"h{level}"
        ]


def inline_text(token: Token) -> str:
    """The visible text of an inline token (code spans keep their content, markup is dropped)."""
    return "".join(child.content for child in token.children or [] if child.type in ("text", "code_inline"))


def read_page(path: Path) -> Page:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\n") != "---":
        return Page(path, {}, text, 0)
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].rstrip("\n") == "---")
    except StopIteration:
        return Page(path, {}, text, 0)
    front: dict[str, str] = {}
    for raw in lines[1:end]:
        key, sep, value = raw.partition(":")
        if sep:
            front[key.strip()] = value.strip()
    return Page(path, front, "".join(lines[end + 1 :]), end + 1)


def all_blocks() -> Iterator[Block]:
    for path in PAGES:
        yield from read_page(path).blocks()


RUNNABLE = [pytest.param(b, id=b.test_id) for b in all_blocks() if b.runnable]


# ---------------------------------------------------------------------------------------------
# Running the examples


def _clean_env() -> dict[str, str]:
    """The environment of a block: CPU JAX, and no JAX/XLA settings inherited from the caller."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_", "TF_CPP_"))}
    env["JAX_PLATFORMS"] = "cpu"
    # Eight fake CPU devices, as the JAX oracle uses: the sharding page needs a (4, 2) mesh, and one
    # setting for every block keeps each block's environment the same whatever page it is on.
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    env["PYTHONHASHSEED"] = "0"
    return env


def _torch_xla_env() -> dict[str, str]:
    """The environment of a torch_xla block: the CPU PJRT device, no JAX/XLA/PJRT settings from the caller."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_", "TF_CPP_", "PJRT_"))}
    env["PJRT_DEVICE"] = "CPU"
    env["PYTHONHASHSEED"] = "0"
    return env


def _fork_servers(workdir: Path) -> dict[bool, forkserver.ForkServerPool | None]:
    """One pool of fork servers for JAX blocks and one for torch_xla blocks (keyed by ``torch_xla``).

    Servers start on first use: none start when nothing is selected or every block runs fresh.
    """
    workers = max(2, os.cpu_count() or 2)
    runner = workdir / "runner.py"
    jax_pool = forkserver.ForkServerPool(workers, sys.executable, runner, JAX_PRELOADED, _clean_env(), workdir)
    torch_xla_python = oracle_python()
    torch_xla_pool = None
    if torch_xla_python is not None:
        torch_xla_pool = forkserver.ForkServerPool(
            workers, torch_xla_python, runner, TORCH_XLA_PRELOADED, _torch_xla_env(), workdir
        )
    return {False: jax_pool, True: torch_xla_pool}


def _run_block(block: Block, workdir: Path, servers: dict[bool, forkserver.ForkServerPool | None]) -> dict[str, object]:
    python, env = sys.executable, _clean_env()
    if block.torch_xla:
        torch_xla_python = oracle_python()
        if torch_xla_python is None:
            return {"rc": None, "result": None, "output": "", "missing_torch_xla": True}
        python, env = torch_xla_python, _torch_xla_env()
    folder = workdir / f"{Path(block.page).stem}_block{block.index}"
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "example.py"
    source.write_text(block.code, encoding="utf-8")
    verdict = folder / "result.json"
    finished = forkserver.run_case(
        servers[block.torch_xla],
        python,
        workdir / "runner.py",
        source,
        env=env,
        settings={},
        cwd=folder,
        timeout_s=TIMEOUT_S,
    )
    returncode, output = finished.returncode, finished.stdout + finished.stderr
    result = json.loads(verdict.read_text(encoding="utf-8")) if verdict.exists() else None
    return {"rc": returncode, "result": result, "output": output[-4000:]}


@pytest.fixture(scope="session")
def example_runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Future[dict[str, object]]]]:
    """Start every selected block at once; each test then waits for its own."""
    selected: list[Block] = []
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and isinstance(callspec.params.get("block"), Block):
            selected.append(callspec.params["block"])
    workdir = tmp_path_factory.mktemp("page_examples")
    (workdir / "runner.py").write_text(RUNNER, encoding="utf-8")
    servers = _fork_servers(workdir)
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        yield {b.test_id: pool.submit(_run_block, b, workdir, servers) for b in dict.fromkeys(selected)}
    for server_pool in servers.values():
        if server_pool is not None:
            server_pool.close()


@pytest.mark.oracle
@pytest.mark.parametrize("block", RUNNABLE)
def test_example_runs(block: Block, example_runs: dict[str, Future[dict[str, object]]]) -> None:
    run = example_runs[block.test_id].result()
    if run.get("missing_torch_xla"):
        require_oracle()
    where = f"{block.page} line {block.line} ({block.info!r})"
    output = run["output"]
    result = run["result"]
    assert run["rc"] == 0 and isinstance(result, dict), f"{where}: runner failed (rc={run['rc']})\n{output}"
    expected = block.expected
    if expected is None:
        assert result["raised"] is None, f"{where}: raised {result['qualname']}\n{result['traceback']}"
        return
    assert result["raised"] is not None, f"{where}: expected {expected}, but it ran clean\n{output}"
    # `raises=TracerBoolConversionError` and `raises=jax.errors.TracerBoolConversionError` both
    # name the class; the class itself must match, not a base class of it.
    assert expected.rsplit(".", 1)[-1] == result["raised"], (
        f"{where}: expected {expected}, got {result['qualname']}: {str(result['message']).splitlines()[:1]}"
    )


# ---------------------------------------------------------------------------------------------
# Page format

PAGE_PARAMS = [pytest.param(p, id=p.name) for p in PAGES]


def test_pages_exist() -> None:
    names = {p.stem for p in PAGES}
    missing = set(REQUIRED_ANCHORS) - names
    assert not missing, f"missing pages: {sorted(missing)}"


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_front_matter(path: Path) -> None:
    page = read_page(path)
    assert page.front_matter, f"{page.name}: no front matter (--- ... --- at the top)"
    assert page.front_matter.get("title"), f"{page.name}: front matter has no title"
    assert page.front_matter.get("summary"), f"{page.name}: front matter has no summary"
    calculators = page.front_matter.get("calculators", "")
    names = [n.strip() for n in calculators.split(",") if n.strip()]
    for name in names:
        assert NAME_RE.fullmatch(name), f"{page.name}: bad calculator name {name!r}"
    required = REQUIRED_CALCULATORS.get(path.stem, set())
    assert required <= set(names), f"{page.name}: calculators must include {sorted(required)}"


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_headings(path: Path) -> None:
    page = read_page(path)
    assert not page.headings(level=1), f"{page.name}: no H1 in the body (the renderer adds the title)"
    headings = page.headings()
    anchors = [slug(h) for h in headings]
    duplicates = sorted({a for a in anchors if anchors.count(a) > 1})
    assert not duplicates, f"{page.name}: headings with the same anchor: {duplicates}"
    missing = [a for a in REQUIRED_ANCHORS.get(path.stem, []) if a not in anchors]
    assert not missing, f"{page.name}: missing sections {missing}; found {anchors}"
    assert "related-rules" not in anchors, f"{page.name}: the renderer inserts 'Related rules' itself"
    assert anchors and anchors[-1] == "sources", f"{page.name}: '## Sources' must be the last section"


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_sources_not_empty(path: Path) -> None:
    tokens = read_page(path).tokens()
    starts = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    assert starts, f"{path.name}: no sections"
    tail = tokens[starts[-1] + 3 :]  # after heading_open, inline, heading_close
    items = [t for t in tail if t.type == "list_item_open"]
    assert items, f"{path.name}: '## Sources' has no list of sources"


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_info_strings(path: Path) -> None:
    page = read_page(path)
    for block in page.blocks():
        where = f"{page.name} line {block.line}"
        assert block.info, f"{where}: a code fence needs a language (python, text, console, ...)"
        word = block.info.split()[0]
        if word in PYTHON_WORDS:
            ok = block.info in ("python", "python norun", TORCH_XLA_INFO) or RAISES_RE.fullmatch(block.info)
            assert ok, (
                f"{where}: {block.info!r} is not 'python', 'python norun', 'python torch_xla' or "
                "'python [torch_xla ]raises=Name'"
            )


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_norun_is_rare(path: Path) -> None:
    """Blocks marked ``norun`` are the exception: no page may consist mostly of them."""
    blocks = read_page(path).blocks()
    python = [b for b in blocks if b.info.split()[0] in PYTHON_WORDS]
    norun = [b for b in python if b.info == "python norun"]
    assert len(norun) * 4 <= len(python), f"{path.name}: {len(norun)} of {len(python)} python blocks are norun"


# ---------------------------------------------------------------------------------------------
# Links from the rules


def _rule_links() -> list[tuple[str, str]]:
    from xlalens.analyzers.engine.registry import all_rules

    return [(rule.code, rule.explainer) for rule in all_rules() if getattr(rule, "explainer", None)]


def test_rule_explainer_links_resolve() -> None:
    links = _rule_links()
    assert links, "no rule has an explainer link"
    anchors_by_page = {p.stem: {slug(h) for h in read_page(p).headings()} for p in PAGES}
    broken = []
    for code, target in links:
        page, _, section = target.partition("#")
        if page not in anchors_by_page:
            broken.append(f"{code}: {target} (no page explainers/pages/{page}.md)")
        elif section and section not in anchors_by_page[page]:
            broken.append(f"{code}: {target} (no section #{section})")
    assert not broken, "broken explainer links:\n" + "\n".join(broken)


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Python control flow", "python-control-flow"),
        ("What is static inside jit?", "what-is-static-inside-jit"),
        ("The `.at` property", "the-at-property"),
        ("Grad without jit", "grad-without-jit"),
        ("Reading cache-miss explanations", "reading-cache-miss-explanations"),
    ],
)
def test_slug(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_every_rule_section_shows_an_example() -> None:
    """A diagnostic sends its reader to a section; that section shows code, not prose alone."""
    from xlalens.analyzers.engine.registry import all_rules
    from xlalens.explainers.pages_catalog import load_pages, section_markdown

    pages = load_pages()
    bare = []
    for rule in all_rules():
        page, _, anchor = rule.explainer.partition("#")
        text = section_markdown(pages[page].body, anchor) if anchor else pages[page].body
        if text is None or "```" not in text:
            bare.append(f"{rule.code}: {rule.explainer}")
    assert not bare, "rule sections without a code example:\n" + "\n".join(bare)


_XLALENS_IMPORT = re.compile(r"^\s*(?:from|import)\s+(xlalens[\w.]*)(?:\s+import\s+(.+))?$", re.M)
PUBLIC_IMPORTS = {"xlalens.analyzers": None, "xlalens.explainers.calculators": {"get_calculator"}}
"""What a page example may import from xlalens: the analyzer's public API and the calculator registry."""


@pytest.mark.parametrize("block", RUNNABLE)
def test_examples_import_only_the_public_api(block: Block) -> None:
    for module, names in _XLALENS_IMPORT.findall(block.code):
        assert module in PUBLIC_IMPORTS, f"{block.test_id} imports {module}, an internal module"
        allowed = PUBLIC_IMPORTS[module]
        imported = {name.strip() for name in names.split(",")} if names else set()
        assert allowed is None or imported <= allowed, f"{block.test_id} imports {imported - allowed} from {module}"
