"""A request's JSON body, read within bounds: no request is too large, too deep or too slow
to answer, and no string in it is anything but plain text.

The app refuses bodies over ``MAX_BODY_BYTES`` (413, Flask's ``MAX_CONTENT_LENGTH``).
Within that, JSON nested a few thousand levels deep would exhaust Python's recursion while
parsing; a referee's action is never more than a few levels deep, so the depth is
measured first, in one pass over the text (linear in its length whatever it holds: a
string that never closes costs what any other text costs), and a deeper body is a 400.

The bytes must be UTF-8 (not replaced with U+FFFD behind the referee's back), and every
string in the body, keys included, goes through one check, :func:`plain_text`: one line
of visible text, no lone surrogate (``"\\ud800"`` is valid JSON, but no text), no control,
format or bidirectional mark (U+200B, U+200F, U+061C, U+FEFF: they make a name display as
another, or as nothing), no private-use or unassigned code point, no letter that draws
nothing (U+3164, U+2800) and no combining mark with no letter before it (a lone U+0301,
U+FE0F): a name that shows blank on the board page is no name.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from flask import abort, request

from makhos.events.decisions import shows_nothing

# The largest action (three names of 80 Thai letters, each sent as \uXXXX) is under 2 KiB, a
# calibration a few hundred bytes. Every body costs the server a pass of its checks in Python
# while holding the interpreter's lock, so the bound is what bounds each request's work: at
# 64 KiB, 20 senders of nested arrays slowed every page to 0.4-0.8 s (bench/flood.py).
MAX_BODY_BYTES = 8 * 1024
MAX_DEPTH = 8  # a new game with a forced opening, {"rules": {"forced_opening": [[...]]}}, is 4

# A JSON string, closed or running to the end of the text; then what is not a bracket; then
# the innermost pairs, which one pass removes at every place at once.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_BRACKETS_ONLY = re.compile(r"[^\[\]{}]+")
_INNERMOST_PAIR = re.compile(r"\[\]|\{\}")
# Categories no name, round, reason or move holds: controls, format marks (zero-width,
# bidi marks and embeddings, the BOM), surrogates, private use, unassigned, line breaks.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Bidirectional embeddings and overrides (format characters) read as controls, as before.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_CATEGORY_NAMES = {"Cc": "a control character", "Cf": "an invisible format character",
                   "Cs": "a lone surrogate", "Co": "a private-use character",
                   "Cn": "an unassigned code point", "Zl": "a line break", "Zp": "a line break"}


class TextError(ValueError):
    """A string that is not one line of plain text; the message names the field."""


def nesting_depth(text: str, most: int = 64) -> int:
    """How deep the arrays and objects of JSON text nest (strings do not count), up to
    ``most``. A string that never closes hides the rest of the text, as a parser would
    read it; brackets that never close count as levels.

    Each step is one pass of the regex engine over the text (strings out, then the
    innermost pairs out, once a level), so a body full of brackets or escaped quotes costs
    C's time, not the interpreter's: the work of every request stays small beside the
    pages' (``python -m bench.flood``).

    >>> nesting_depth('{"a": [1, {"b": "[[["}]}')
    3
    >>> nesting_depth('{"a": "\\\\"[[[[')
    1
    >>> nesting_depth("[" * 30_000, most=9)
    9
    """
    bare = _BRACKETS_ONLY.sub("", _STRING.sub("", text))
    depth = 0
    while depth < most:
        bare, pairs = _INNERMOST_PAIR.subn("", bare)
        if not pairs:
            break
        depth += 1
    return min(most, depth + bare.count("[") + bare.count("{"))


def plain_text(value: str, what: str) -> None:
    """Raise :class:`TextError` unless ``value`` is one line of visible text.

    >>> plain_text("สมชาย ใจดี", "first")
    >>> plain_text("Som\\u200bchai", "first")
    Traceback (most recent call last):
    ...
    makhos.server.body.TextError: first holds an invisible format character (U+200B); names, rounds, reasons and moves are one line of plain text
    """
    for char in value:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES or char == "\ufffd":
            kind = ("a control character" if char in _BIDI_CONTROLS else
                    _CATEGORY_NAMES.get(category, "a replacement character (bad encoding)"))
            raise TextError(f"{what} holds {kind} (U+{ord(char):04X}); names, rounds, reasons "
                            "and moves are one line of plain text")
    blank = shows_nothing(value)
    if blank is not None:
        raise TextError(f"{what} holds {blank[1]} (U+{ord(blank[0]):04X}); names, rounds, "
                        "reasons and moves are one line of plain text")


def check_strings(data: Any, where: str = "") -> None:
    """:func:`plain_text` on every string of parsed JSON, keys included (named by path).

    JSON whose every string is printable ASCII (the text ``json.dumps`` gives back is, with
    no escape but of a quote or a backslash) passes in one pass of C: a body of thousands of
    numbers or arrays is not walked value by value."""
    if not where:
        text = json.dumps(data, ensure_ascii=False)
        if text.isascii() and text.isprintable() and "\\" not in text.replace("\\\\", "").replace('\\"', ""):
            return
    if isinstance(data, str):
        plain_text(data, where or "the body")
    elif isinstance(data, dict):
        for key, value in data.items():
            plain_text(key, f"a field name in {where or 'the body'}")
            check_strings(value, key if not where else f"{where}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            check_strings(value, f"{where or 'the body'}[{index}]")


def json_body(example: str) -> Any:
    """The request's JSON, or a 400 that says what was wrong and shows ``example``."""
    raw = request.get_data()
    if not request.is_json or not raw:
        abort(400, description=f"the body must be JSON, e.g. {example}, sent with "
                               "Content-Type: application/json")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        abort(400, description=f"the body must be UTF-8 (byte {error.start} is not)")
    if nesting_depth(text) > MAX_DEPTH:
        abort(400, description=f"the JSON body nests deeper than {MAX_DEPTH} levels; "
                               f"an action looks like {example}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        abort(400, description=f"the body must be JSON ({error}), e.g. {example}")
    try:
        check_strings(data)
    except TextError as error:
        abort(400, description=str(error))
    return data
