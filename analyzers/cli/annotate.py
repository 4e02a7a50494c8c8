"""``xlalens annotate FILE``: the file with the inferred ``dtype[shape]`` of each array assignment inline."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from xlalens.analyzers.cli.common import EXIT_CLEAN, UsageError
from xlalens.analyzers.core.codes import NEWER_SYNTAX
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.inputs.fileio import SourceReadError, decode_source

if TYPE_CHECKING:
    from xlalens.analyzers.annotate import Annotation


def add_annotate(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "annotate",
        help="Print a file with inferred array dtypes and shapes inline.",
        description="Print FILE with the inferred dtype[shape] of each array assignment written after its "
        "target (syntax-highlighted on a terminal, plain text when piped). Only values the analysis is "
        "certain of are shown.",
    )
    parser.set_defaults(handler=_run_annotate)
    parser.add_argument("file", metavar="FILE", help="A Python file.")


_TAB_SIZE = 4


def _run_annotate(args: argparse.Namespace) -> int:
    from xlalens.analyzers.annotate import annotate_source, render_inline

    try:
        data = Path(args.file).read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {args.file}: {error.strerror or error}") from None
    try:
        text = decode_source(data, args.file).text
    except SourceReadError as error:
        raise UsageError(f"{args.file}: {error}") from None
    try:
        annotations = annotate_source(text, args.file)
    except SyntaxError as error:
        raise UsageError(f"cannot annotate {args.file}: {_syntax_problem(text, args.file, error)}") from None
    if not sys.stdout.isatty():
        sys.stdout.write(render_inline(text, annotations))
        return EXIT_CLEAN
    from rich.console import Console  # only on a terminal: rich is slow to import
    from rich.syntax import Syntax

    lines, labels = _annotated_lines(text, annotations)
    joined = "\n".join(lines)
    highlighted = Syntax(joined, "python", tab_size=_TAB_SIZE, background_color="default").highlight(joined)
    for start, end in labels:
        highlighted.stylize("italic cyan", start, end)
    Console().print(highlighted, soft_wrap=True)
    return EXIT_CLEAN


def _syntax_problem(text: str, path: str, error: SyntaxError) -> str:
    from xlalens.analyzers.api import check_source

    if any(d.code == NEWER_SYNTAX for d in check_source(text, path)):
        return "it uses syntax newer than the Python running xlalens (annotating it needs Python >= 3.12)"
    return f"line {error.lineno}: SyntaxError: {error.msg}"


def _annotated_lines(text: str, annotations: Sequence[Annotation]) -> tuple[list[str], list[tuple[int, int]]]:
    """The lines with ``: label`` inserted and tabs expanded, and the label spans in their joined text.

    Tabs are expanded here, not by the highlighter, so that the spans stay exact.
    """
    by_line: dict[int, list[Annotation]] = {}
    for annotation in annotations:
        by_line.setdefault(annotation.position.line, []).append(annotation)
    lines: list[str] = []
    labels: list[tuple[int, int]] = []
    offset = 0
    for number, line in enumerate(SourceText(text).lines, start=1):
        pieces: list[str] = []
        cursor = 0
        for annotation in sorted(by_line.get(number, ()), key=lambda a: a.position.column):
            pieces.append(line[cursor : annotation.position.column])
            start = len("".join(pieces).expandtabs(_TAB_SIZE))
            pieces.append(f": {annotation.label}")
            labels.append((offset + start, offset + start + len(annotation.label) + 2))
            cursor = annotation.position.column
        pieces.append(line[cursor:])
        expanded = "".join(pieces).expandtabs(_TAB_SIZE)
        lines.append(expanded)
        offset += len(expanded) + 1
    return lines, labels
