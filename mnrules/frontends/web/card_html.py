"""A card file as the editor shows it: HTML spans, its script (the block under
``effects:``) coloured by the lexer generated from the grammar and the vocabulary
(:func:`mnrules.language.highlight.lexer`), so the page never colours a word otherwise
than ``check`` reads it; the lines ``check`` refused marked, and the token under each
caret marked as an error.

Every character of the file is escaped; without Pygments (the ``[highlight]`` extra) the
file is plain text with its refused lines still marked."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from ...language.words import Vocabulary

# a key opening a block scalar: ``effects: |`` (its indentation, then the block's lines
# are those indented deeper, and blank lines between them)
BLOCK = re.compile(r"^(?P<indent>[ \t]*)effects:\s*[|>][-+0-9]*\s*(?:#.*)?$")
ERROR_CLASS = "t-err"


def script_lines(lines: list[str]) -> list[bool]:
    """For each line of a card file, whether it belongs to a script block."""
    out = [False] * len(lines)
    indent: int | None = None
    for i, line in enumerate(lines):
        if indent is not None:
            if not line.strip() or len(line) - len(line.lstrip(" \t")) > indent:
                out[i] = True
                continue
            indent = None
        found = BLOCK.match(line)
        if found is not None:
            indent = len(found["indent"])
    return out


def _token_classes(vocab: Vocabulary | None, text: str) -> list[tuple[int, str]] | None:
    """(start offset, CSS class) of each token of ``text``; None without Pygments."""
    try:
        from pygments.token import STANDARD_TYPES
    except ImportError:
        return None
    from ...language.highlight import lexer

    out = []
    for start, kind, _ in lexer(vocab).get_tokens_unprocessed(text):
        while kind not in STANDARD_TYPES:
            kind = kind.parent
        short = STANDARD_TYPES[kind]
        out.append((start, f"t-{short}" if short else ""))
    return out


def card_html(text: str, vocab: Vocabulary | None,
              errors: Iterable[tuple[int, int]] = ()) -> str:
    """``text`` as HTML: one ``<span class="line">`` per line (``errline`` when an error
    is at one of its columns), script tokens as ``<span class="t-…">`` (Pygments' short
    token names: ``t-k`` a keyword, ``t-nx`` a word the vocabulary lacks...), the token
    at an error's column (or the first after it) also ``t-err``. ``errors`` are (line,
    column), 1-based, as ``check`` gives them."""
    lines = text.split("\n")
    at: dict[int, set[int]] = {}
    for line, column in errors:
        if 1 <= line <= len(lines):
            at.setdefault(line, set()).add(max(column, 1))
    pieces: list[list[tuple[str, str]]] = [[(ln, "")] for ln in lines]
    inside = script_lines(lines)
    i = 0
    while i < len(lines):                # each block lexed whole, as the parser reads it
        if not inside[i]:
            i += 1
            continue
        j = i
        while j < len(lines) and inside[j]:
            j += 1
        block = _lex(lines[i:j], vocab)
        if block is not None:
            pieces[i:j] = block
        i = j
    return "\n".join(_line_html(n, parts, at.get(n, set()))
                     for n, parts in enumerate(pieces, 1))


def _lex(lines: list[str], vocab: Vocabulary | None) -> list[list[tuple[str, str]]] | None:
    """Each line of a script block as its (text, class) pieces; None without Pygments."""
    text = "\n".join(lines)
    tokens = _token_classes(vocab, text)
    if tokens is None:
        return None
    out: list[list[tuple[str, str]]] = [[]]
    for k, (start, cls) in enumerate(tokens):
        end = tokens[k + 1][0] if k + 1 < len(tokens) else len(text)
        for n, part in enumerate(text[start:end].split("\n")):
            if n:
                out.append([])
            if part:
                out[-1].append((part, cls))
    return out


def _line_html(number: int, parts: list[tuple[str, str]], carets: set[int]) -> str:
    body, col, left = [], 1, set(carets)
    for piece, cls in parts:
        end = col + len(piece)
        hit = {c for c in left if c < end} if piece.strip() else set()
        if hit:
            cls, left = f"{cls} {ERROR_CLASS}".strip(), left - hit
        col = end
        body.append(f'<span class="{cls}">{html.escape(piece)}</span>' if cls
                    else html.escape(piece))
    if left:                                  # a caret past the line's last word
        body.append(f'<span class="{ERROR_CLASS}"> </span>')
    kind = "line errline" if carets else "line"
    return f'<span class="{kind}" data-line="{number}">{"".join(body)}</span>'
