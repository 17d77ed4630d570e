"""A request's JSON body, read within bounds: no request is too large or too deep to answer.

The app refuses bodies over ``MAX_BODY_BYTES`` (413, Flask's ``MAX_CONTENT_LENGTH``).
Within that, JSON nested a few thousand levels deep would exhaust Python's recursion while
parsing; a referee's action is never more than a few levels deep, so the depth is
measured first, in one pass over the text, and a deeper body is a 400.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import abort, request

MAX_BODY_BYTES = 64 * 1024  # the largest action (a new game's rules) is well under 1 KiB
MAX_DEPTH = 8  # a new game with a forced opening, {"rules": {"forced_opening": [[...]]}}, is 4

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def nesting_depth(text: str) -> int:
    """How deep the arrays and objects of JSON text nest (strings do not count).

    >>> nesting_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub('""', text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def json_body(example: str) -> Any:
    """The request's JSON, or a 400 that says what was wrong and shows ``example``."""
    text = request.get_data(as_text=True)
    if not request.is_json or not text:
        abort(400, description=f"the body must be JSON, e.g. {example}, sent with "
                               "Content-Type: application/json")
    if nesting_depth(text) > MAX_DEPTH:
        abort(400, description=f"the JSON body nests deeper than {MAX_DEPTH} levels; "
                               f"an action looks like {example}")
    try:
        return json.loads(text)
    except ValueError as error:
        abort(400, description=f"the body must be JSON ({error}), e.g. {example}")
