"""``xlalens explain`` and ``xlalens calc``: the explainer pages and calculators on the command line.

* ``xlalens explain`` lists the pages and calculators.
* ``xlalens explain TOPIC [SECTION]`` prints a page or one section (``TOPIC#SECTION`` works too).
* ``xlalens explain --serve [--port N]`` serves every page on 127.0.0.1 with live calculators.
* ``xlalens explain --export DIR [--base-path /prefix] [--pyodide-url URL]`` writes the site as
  static files for hosting; its calculators compute in the browser with Pyodide.
* ``xlalens calc`` lists the calculators; ``xlalens calc NAME --field value …`` computes one
  (``--json`` for JSON; ``xlalens calc NAME --help`` lists its fields).

The explainer modules and rich are imported inside the handlers: ``xlalens check`` never pays for them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlalens.analyzers.cli.common import EXIT_CLEAN, UsageError

if TYPE_CHECKING:
    from xlalens.explainers.calculators import Calculator
    from xlalens.explainers.pages_catalog import Page


def add_explain(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``xlalens explain``."""
    from xlalens.explainers.links import DEFAULT_PORT

    parser = subparsers.add_parser(
        "explain",
        help="Read the explainer pages, or serve them with live calculators.",
        description="Print an explainer page or one of its sections, or serve all pages on 127.0.0.1.",
    )
    parser.set_defaults(handler=_run_explain)
    parser.add_argument("topic", nargs="?", metavar="TOPIC", help="A page such as tracing (or tracing#printing).")
    parser.add_argument("section", nargs="?", metavar="SECTION", help="A section anchor such as printing.")
    parser.add_argument("--serve", action="store_true", help="Serve the pages on 127.0.0.1 until interrupted.")
    parser.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"The port for --serve (default {DEFAULT_PORT}; 0 picks a free one).",
    )
    parser.add_argument(
        "--export",
        metavar="DIR",
        type=Path,
        help="Write the whole site as static files into DIR, for hosting (point explainer-base-url at it).",
    )
    parser.add_argument(
        "--base-path",
        default="",
        metavar="PATH",
        help="With --export: the path the site is hosted under, e.g. /xlalens (default: the domain's root).",
    )
    parser.add_argument(
        "--pyodide-url",
        default=None,
        metavar="URL",
        help="With --export: where the calculators load Pyodide from, for a self-hosted copy of the pyodide "
        "npm package (default: a pinned release on the jsDelivr CDN).",
    )


def add_calc(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``xlalens calc``."""
    parser = subparsers.add_parser(
        "calc",
        help="Run a calculator on your numbers.",
        description="Run a calculator: xlalens calc NAME --field value ... (xlalens calc NAME --help lists fields).",
        add_help=False,
    )
    parser.set_defaults(handler=_run_calc)
    # The parser has no help action of its own (the fields after NAME are the calculator's, and
    # --help there lists them); -h before NAME is declared here so argparse accepts it.
    parser.add_argument("-h", "--help", action="store_true", dest="list_help", help="List the calculators.")
    parser.add_argument("name", nargs="?", metavar="NAME", help="A calculator such as blockspec.")
    parser.add_argument("fields", nargs=argparse.REMAINDER, help="--field value pairs, --json, --help.")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not between 0 and 65535")
    return port


# --- explain ----------------------------------------------------------------------------------


def _run_explain(args: argparse.Namespace) -> int:
    from xlalens.explainers.pages_catalog import PageError, load_pages

    try:
        pages = load_pages()
    except PageError as error:
        raise UsageError(str(error)) from None
    if args.export is not None:
        return _export(args.export, args.base_path, args.pyodide_url)
    if args.serve:
        return _serve(args.port, pages, args.topic)
    if args.topic is None:
        _list_topics(pages)
        return EXIT_CLEAN
    topic, _, anchor = args.topic.partition("#")
    page = pages.get(topic)
    if page is None:
        raise UsageError(f"unknown topic {topic!r}; topics: {', '.join(pages)}")
    anchor = args.section or anchor
    _print_markdown(_topic_markdown(page, anchor))
    return EXIT_CLEAN


def _topic_markdown(page: Page, anchor: str) -> str:
    from xlalens.analyzers.output.site import rule_entries
    from xlalens.explainers.pages_catalog import page_markdown, section_markdown

    markdown = page_markdown(page, rule_entries())
    if not anchor:
        return f"# {page.title}\n\n{markdown}"
    section = page.section(anchor)
    text = section_markdown(markdown, section.anchor) if section else None
    if text is None:
        anchors = ", ".join(section.anchor for section in page.sections)
        raise UsageError(f"page {page.slug!r} has no section {anchor!r}; sections: {anchors}")
    return text


def _list_topics(pages: Mapping[str, Page]) -> None:
    from xlalens.explainers.calculators import all_calculators

    lines = ["Topics (xlalens explain TOPIC [SECTION]):", ""]
    width = max((len(slug) for slug in pages), default=0)
    for page in pages.values():
        lines.append(f"  {page.slug:<{width}}  {page.summary}")
        lines.append(f"  {'':<{width}}  sections: {', '.join(section.anchor for section in page.sections)}")
    calculators = list(all_calculators())
    width = max((len(calculator.name) for calculator in calculators), default=0)
    lines += ["", "Calculators (xlalens calc NAME --help):", ""]
    lines += [f"  {calculator.name:<{width}}  {calculator.summary}" for calculator in calculators]
    print("\n".join(lines))


def _print_markdown(markdown: str) -> None:
    from xlalens.explainers.pages_catalog import plain_fences

    markdown = plain_fences(markdown)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(markdown))
    else:
        sys.stdout.write(markdown)


def _export(directory: Path, base_path: str, pyodide_url: str | None) -> int:
    from xlalens.analyzers.output.site import rule_entries
    from xlalens.explainers.export import DEFAULT_PYODIDE_URL, ExportError, export_site

    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{directory} exists and is not a directory")
    try:
        written = export_site(directory, rule_entries(), base_path, pyodide_url or DEFAULT_PYODIDE_URL)
    except ExportError as error:
        raise UsageError(str(error)) from None
    print(f"Wrote {len(written)} files of the xlalens explainers to {directory}", file=sys.stderr)
    return EXIT_CLEAN


def _serve(port: int, pages: Mapping[str, Page], topic: str | None) -> int:
    from xlalens.analyzers.output.site import rule_entries
    from xlalens.explainers.links import section_url
    from xlalens.explainers.web import ExplainerServer

    if topic is not None and topic.partition("#")[0] not in pages:
        raise UsageError(f"unknown topic {topic.partition('#')[0]!r}; topics: {', '.join(pages)}")
    try:
        server = ExplainerServer(port, rule_entries())
    except OSError as error:
        raise UsageError(
            f"cannot listen on 127.0.0.1:{port} ({error.strerror}); try --port 0 for a free port"
        ) from None
    where = section_url(server.url, topic) if topic else server.url
    print(f"Serving the xlalens explainers at {where} (Ctrl-C to stop)", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return EXIT_CLEAN


# --- calc -------------------------------------------------------------------------------------


def _run_calc(args: argparse.Namespace) -> int:
    from xlalens.explainers.calculators import CalculatorInputError, UnknownCalculatorError, get_calculator

    if args.name is None:
        _list_calculators()
        return EXIT_CLEAN
    try:
        calculator = get_calculator(args.name)
    except UnknownCalculatorError as error:
        raise UsageError(str(error)) from None
    fields, as_json, wants_help = _calc_options(calculator, args.fields)
    if wants_help or args.list_help:
        _print_calculator_help(calculator)
        return EXIT_CLEAN
    try:
        result = calculator.run(fields)
    except CalculatorInputError as error:
        raise UsageError(f"calc {calculator.name}: {error}") from None
    if as_json:
        from xlalens.explainers.calculators import result_json

        print(json.dumps({"calculator": calculator.name, "inputs": fields, **result_json(result)}, indent=2))
    else:
        _print_result(calculator, result)
    return EXIT_CLEAN


def _calc_options(calculator: Calculator[Any, Any], tokens: Sequence[str]) -> tuple[dict[str, str], bool, bool]:
    """``--field value`` / ``--field=value`` pairs, plus the ``--json`` and ``--help`` flags."""
    from xlalens.explainers.calculators import CalculatorInputError

    fields: dict[str, str] = {}
    as_json = wants_help = False
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token == "--json":
            as_json = True
            continue
        if token in ("-h", "--help"):
            wants_help = True
            continue
        if not token.startswith("--") or token == "--":
            raise UsageError(f"calc {calculator.name}: expected --FIELD VALUE, got {token!r}")
        name, equals, value = token[2:].partition("=")
        if not equals:
            if index >= len(tokens):
                raise UsageError(f"calc {calculator.name}: --{name} needs a value")
            value = tokens[index]
            index += 1
        try:
            fields[calculator.field(name).name] = value
        except CalculatorInputError as error:
            raise UsageError(f"calc {calculator.name}: {error}") from None
    return fields, as_json, wants_help


def _list_calculators() -> None:
    from xlalens.explainers.calculators import all_calculators

    calculators = list(all_calculators())
    width = max((len(calculator.name) for calculator in calculators), default=0)
    lines = ["Calculators (xlalens calc NAME --help lists a calculator's fields):", ""]
    lines += [f"  {calculator.name:<{width}}  {calculator.summary}" for calculator in calculators]
    print("\n".join(lines))


def _print_calculator_help(calculator: Calculator[Any, Any]) -> None:
    lines = [f"xlalens calc {calculator.name} [--json] [--FIELD VALUE ...]", "", calculator.summary, "", "Fields:"]
    for spec in calculator.fields:
        default = f" (default: {spec.default})" if spec.default is not None else " (required)"
        choices = f" One of: {', '.join(spec.choices)}." if spec.choices else ""
        lines.append(f"  --{spec.name}: {spec.help}{choices}{default}")
    if calculator.examples:
        example = " ".join(f"--{name} {_shell_quote(value)}" for name, value in calculator.examples[0].items())
        lines += ["", f"Example: xlalens calc {calculator.name} {example}"]
    print("\n".join(lines))


def _shell_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _print_result(calculator: Calculator[Any, Any], result: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 120)
    table = Table(title=f"{calculator.title}: {result.headline}", title_justify="left", show_lines=False)
    table.add_column("quantity")
    table.add_column("value", overflow="fold")
    table.add_column("formula", overflow="fold")
    for row in result.rows():
        table.add_row(row.label, row.value, row.formula)
    console.print(table)
    console.print(f"status: {result.status}")
