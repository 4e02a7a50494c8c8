"""One calculator request answered as JSON: the body of ``/api/calc/<name>``, wherever it is computed.

The local server (``explainers/web.py``) answers ``/api/calc/<name>`` with :func:`answer`, and the
static copy of the site (``xlalens explain --export``) runs this same module in the browser under
Pyodide through :func:`answer_json`, so both compute with one copy of the calculators and send the
same JSON. The module and the calculator package it imports use only the standard library: the
export copies exactly those sources into the static site, and a test checks that they import
nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from xlalens.explainers.calculators import (
    CalculatorInputError,
    UnknownCalculatorError,
    all_calculators,
    get_calculator,
    result_json,
)

_NOT_A_QUERY = "the query must be a JSON object of strings"


def unknown_calculator_message(name: str) -> str:
    """What a request for a calculator that does not exist is told, with the names that do."""
    known = ", ".join(calculator.name for calculator in all_calculators())
    return f"No calculator {name!r}; calculators: {known}."


def answer(name: str, query: Mapping[str, str]) -> tuple[HTTPStatus, dict[str, Any]]:
    """The status and JSON body of ``/api/calc/<name>`` for ``query`` (field name -> text).

    Bad input is a 400 whose body names the field, so a form can put the message next to it.

    Examples:
        >>> status, body = answer("shard-shape", {"mesh": "x:4", "shape": "8,6", "spec": "x,None"})
        >>> int(status), body["ok"], body["result"]["status"]
        (200, True, 'ok')
        >>> answer("shard-shape", {"mesh": "x:4", "shape": "8,a", "spec": "x,None"})[1]["field"]
        'shape'
        >>> int(answer("no-such-calculator", {})[0])
        404
    """
    try:
        calculator = get_calculator(name)
    except UnknownCalculatorError:
        return HTTPStatus.NOT_FOUND, {"message": unknown_calculator_message(name)}
    try:
        result = calculator.run(query)
    except CalculatorInputError as error:
        return HTTPStatus.BAD_REQUEST, {"ok": False, "field": error.field, "message": error.message}
    return HTTPStatus.OK, {"ok": True, "result": result_json(result, calculator.draw(result))}


def answer_json(name: str, query_json: str) -> str:
    """:func:`answer` for the browser: the query comes in as JSON text, the answer goes out as JSON text.

    The page's script passes what the reader typed as a JSON object of strings (data, never Python
    source) and reads back ``{"status": <HTTP status>, "body": <the /api/calc body>}``.

    Examples:
        >>> json.loads(answer_json("shard-shape", '{"mesh": "x:4", "shape": "8,6", "spec": "x,None"}'))["status"]
        200
        >>> json.loads(answer_json("shard-shape", '["not", "an", "object"]'))["body"]["message"]
        'the query must be a JSON object of strings'
    """
    try:
        query = json.loads(query_json)
    except ValueError:
        query = None
    if not isinstance(query, dict) or not all(isinstance(value, str) for value in query.values()):
        status, body = HTTPStatus.BAD_REQUEST, {"ok": False, "field": name, "message": _NOT_A_QUERY}
    else:
        status, body = answer(name, query)
    return json.dumps({"status": int(status), "body": body})
