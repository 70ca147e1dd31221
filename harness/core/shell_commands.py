"""A shell command line split into the simple commands it would run.

Pure: text in, a list of :class:`SimpleCommand` out. The agent's shell tools hand us one
string that may hold lists, pipelines, subshells, loops, command substitutions and nested
`sh -c "…"`; a guard that looked at the raw text would be fooled by a commit message that
mentions `--no-verify`, and one that split on spaces would miss `$(git commit -n)`.

`bashlex` parses most of bash into a real tree. Where it gives up (`[[ … ]]`, arithmetic,
`case`), an honest fallback tokenizes with :mod:`shlex` (quotes handled, operators split
out) and errs towards finding more commands, never fewer.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash"})
# Words that run the rest of the line as a command: `sudo git commit -n` is `git commit -n`.
PREFIXES = frozenset({"sudo", "command", "exec", "nohup", "time", "nice", "builtin", "doas", "xargs"})
RESERVED = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in",
                      "case", "esac", "{", "}", "!", "[[", "]]", "function", "select"})
WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
MAX_DEPTH = 8


class ShellSyntaxError(ValueError):
    """Neither parser could read the text (an unbalanced quote, say)."""


@dataclass(frozen=True)
class SimpleCommand:
    words: tuple[str, ...]                                    # argv after quote removal
    assignments: tuple[str, ...] = ()                         # NAME=value prefixes
    redirects: tuple[tuple[str, str], ...] = field(default=())  # (operator, target)

    @property
    def program(self) -> str:
        return posixpath.basename(self.words[0]) if self.words else ""


def parse(text: str) -> list[SimpleCommand]:
    """Every simple command ``text`` would run, nested ones included."""
    return list(_parse(text, 0))


def _parse(text: str, depth: int) -> Iterator[SimpleCommand]:
    if depth > MAX_DEPTH:
        raise ShellSyntaxError("commands nested too deeply to judge")
    text, scripts = without_heredocs(text)
    for script in scripts:
        yield from _parse(script, depth + 1)
    try:
        commands = list(_bashlex_commands(text))
    except Exception:  # bashlex raises several types for what it does not support
        commands = list(_fallback_commands(text))
    for cmd in commands:
        cmd = _strip_prefixes(cmd)
        if not cmd.words and not cmd.assignments and not cmd.redirects:
            continue
        yield cmd
        yield from _nested(cmd, depth)


# `<<EOF`, `<<-EOF`, `<< 'EOF'`, `<<"EOF"` — not the here-string `<<<`.
HEREDOC = re.compile(r"(?<!<)<<(-?)[ \t]*(?:'([^'\n]+)'|\"([^\"\n]+)\"|\\?([A-Za-z0-9_.-]+))(?!<)")
FEEDS_A_SHELL = re.compile(r"(^|[;&|(\s])(sudo\s+)?(\S*/)?(ba|z|da|k|a)?sh(\s+-[a-z]+)*\s*$")


def without_heredocs(text: str) -> tuple[str, list[str]]:
    """The text with here-document bodies taken out (they are data: a commit message written
    with `git commit -m "$(cat <<'EOF' … EOF)"` is not a command), and the bodies that feed a
    shell (`bash <<EOF`), which are commands and are judged as such."""
    lines = text.split("\n")
    out: list[str] = []
    scripts: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        cuts = []
        for m in HEREDOC.finditer(line):
            strip_tabs, word = m.group(1) == "-", next(g for g in m.groups()[1:] if g)
            end = next((j for j in range(i, len(lines))
                        if (lines[j].lstrip("\t") if strip_tabs else lines[j]) == word), None)
            if end is None:
                continue  # not a here-document after all (no terminator): leave the text as it is
            if FEEDS_A_SHELL.search(line[:m.start()]):
                scripts.append("\n".join(lines[i:end]))
            cuts.append((m.start(), m.end()))
            i = end + 1  # a second here-document on the line starts after the first one's end
        for start, stop in reversed(cuts):
            line = line[:start] + line[stop:]
        out.append(line)
    return "\n".join(out), scripts


def _nested(cmd: SimpleCommand, depth: int) -> Iterator[SimpleCommand]:
    """`bash -c "…"` and `eval …` run a string as a command line: parse it too."""
    words = cmd.words
    if cmd.program in SHELLS:
        for i, w in enumerate(words[1:], 1):
            if w.startswith("-") and "c" in w[1:] and not w.startswith("--") and i + 1 < len(words):
                yield from _parse(words[i + 1], depth + 1)
                break
    elif cmd.program == "eval" and len(words) > 1:
        yield from _parse(" ".join(words[1:]), depth + 1)


def _strip_prefixes(cmd: SimpleCommand) -> SimpleCommand:
    words, assigns = list(cmd.words), list(cmd.assignments)
    while words:
        head = posixpath.basename(words[0])
        if head == "env":
            words.pop(0)
            while words and (words[0].startswith("-") or _is_assignment(words[0])):
                w = words.pop(0)
                if _is_assignment(w):
                    assigns.append(w)
                elif w in ("-u", "-C", "-S") and words:
                    words.pop(0)
        elif head == "timeout":
            words.pop(0)
            while words and words[0].startswith("-"):
                words.pop(0)
            if words:
                words.pop(0)  # the duration
        elif head in PREFIXES or words[0] in RESERVED:
            words.pop(0)
            while words and words[0].startswith("-") and head in ("sudo", "nice", "xargs", "command", "doas"):
                words.pop(0)
        else:
            break
    return SimpleCommand(tuple(words), tuple(assigns), cmd.redirects)


def _is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.replace("_", "a").isalnum() and not name[0].isdigit()


# -- bashlex ------------------------------------------------------------------------------

def _bashlex_commands(text: str) -> Iterator[SimpleCommand]:
    import bashlex

    for tree in bashlex.parse(text):
        yield from _walk(tree)


def _walk(node: Any) -> Iterator[SimpleCommand]:
    kind = getattr(node, "kind", None)
    if kind == "command":
        words, assigns, redirects = [], [], []
        for part in node.parts:
            if part.kind == "word":
                words.append(part.word)
            elif part.kind == "assignment":
                assigns.append(part.word)
            elif part.kind == "redirect":
                target = part.output
                redirects.append((part.type, target.word if hasattr(target, "word") else str(target)))
        yield SimpleCommand(tuple(words), tuple(assigns), tuple(redirects))
    # Substitutions inside words, bodies of loops and functions, subshells: all run too.
    for attr in ("parts", "list"):
        for child in getattr(node, attr, None) or []:
            yield from _walk(child)
    for attr in ("command", "body", "output"):
        child = getattr(node, attr, None)
        if child is not None and hasattr(child, "kind"):
            yield from _walk(child)


# -- fallback tokenizer -------------------------------------------------------------------

SEPARATORS = frozenset({";", "&", "|", "&&", "||", "(", ")", ";;", "|&", "\n"})


def _fallback_commands(text: str) -> Iterator[SimpleCommand]:
    lexer = shlex.shlex(text.replace("\n", " ; "), posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError as exc:
        raise ShellSyntaxError(str(exc)) from None
    words: list[str] = []
    redirects: list[tuple[str, str]] = []
    pending: str | None = None
    for tok in tokens + [";"]:
        if pending is not None:
            redirects.append((pending, tok))
            pending = None
        elif tok in SEPARATORS or (tok and set(tok) <= set(";&|()")):
            if words or redirects:
                yield _fallback_command(words, redirects)
            words, redirects = [], []
        elif tok and set(tok) <= set("<>&"):
            pending = tok
        else:
            words.append(tok)
            for inner in _substitutions(tok):
                yield from _fallback_commands(inner)


def _fallback_command(words: list[str], redirects: list[tuple[str, str]]) -> SimpleCommand:
    assigns = []
    while words and _is_assignment(words[0]):
        assigns.append(words.pop(0))
    return SimpleCommand(tuple(words), tuple(assigns), tuple(redirects))


def _substitutions(word: str) -> Iterator[str]:
    """The text of `$(…)` and backtick substitutions inside a token, crudely but generously."""
    start = word.find("$(")
    if start >= 0:
        end = word.rfind(")")
        yield word[start + 2:end if end > start else len(word)]
    if word.count("`") >= 2:
        yield word.split("`")[1]
