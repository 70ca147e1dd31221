"""Expansions the guard can work out before it judges: variables set earlier in the same
command line, and `$(…)` or backticks around literal `echo`/`printf` text.

Pure. `F=--no-verify; git commit $F` and `git commit $(echo -n)` are `git commit --no-verify`
and `git commit -n`; judged as written, they would pass. What cannot be worked out (a
variable from the environment, `$(cat file)`) stays in the word as written, and
:func:`unresolved` says so: the rules decide whether such a word could matter where it stands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from harness.agent.judge.shell_commands import SimpleCommand, TooMuchToJudge
from harness.agent.judge.shell_prefixes import is_assignment
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none
from harness.core.value_class import replace

# Builtins whose NAME=value arguments set shell variables (`declare -x` and `typeset -x` export them too).
DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})
# Patterns, compiled by re's own cache where a word holds `$` or a backtick (most judged words hold neither).
VARIABLE = r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))"
# ... `$'…'` too: ANSI-C quoting, whose escapes (`$'\055n'` is `-n`) the fallback reader leaves as written (F-0234).
EXPANSION = r"\$[A-Za-z_{(0-9?!#@*$'-]|`"


def unresolved(word: str) -> bool:
    """Whether a word still holds an expansion the guard could not work out."""
    return ("$" in word or "`" in word) and re.search(EXPANSION, word) is not None


def resolve(commands: Iterable[SimpleCommand]) -> Iterator[SimpleCommand]:
    """The commands with what is knowable expanded, in the order they run."""
    known: dict[str, str] = {}
    for cmd in commands:
        assigns = tuple(_assignment(a, known) for a in cmd.assignments)
        words = tuple(w for word in cmd.words for w in _expand_word(word, known))
        # A brace in a redirect's target is expanded when it makes one word (`>> .harnes{s..s}/f`); more is an
        # error ("ambiguous redirect") that writes nothing, judged all the same.
        redirects = tuple((op, _expand(b, known)) for op, target in cmd.redirects for b in braces(target))
        resolved = replace(cmd, words=words, assignments=assigns, redirects=redirects)
        if not words:
            known.update(_pairs(assigns))  # `X=1; …` sets X for what follows
        elif resolved.program in DECLARERS:
            known.update(_pairs(a for a in words[1:] if is_assignment(a)))
        yield resolved


def _pairs(assignments: Iterable[str]) -> dict[str, str]:
    return {name: value for name, _, value in (a.partition("=") for a in assignments)}


def declared(cmd: SimpleCommand) -> tuple[str, ...]:
    """The NAME=value a declaring builtin (`export`, `declare -x`, …) sets."""
    return tuple(a for a in cmd.words[1:] if is_assignment(a)) if cmd.program in DECLARERS else ()


def _assignment(text: str, known: dict[str, str]) -> str:
    name, _, value = text.partition("=")
    return f"{name}={_expand(value, known)}"


def _expand_word(word: str, known: dict[str, str]) -> list[str]:
    """One word's expansion; a word that expanded to several (`$FLAGS`) splits into them, as unquoted
    words do (quoted ones would not, and a value the guard splits wrongly errs towards a denial). Braces
    first, as the shell expands them (#28's task F-0060)."""
    out = []
    for braced in braces(word):
        value = _expand(braced, known)
        out += [braced] if value == braced else (value.split() or [""])
    return out


MAX_WORDS = 256    # the words one word may expand to: beyond, the line is too much to judge
MAX_STEPS = 4096   # the expansions tried for one word (a deeply nested one costs this many, not a crash)
MAX_NESTING = 64   # braces inside braces: JSON nests far less


def braces(word: str) -> list[str]:
    """The words a brace expansion makes of ``word`` (`{.harness,x}/f` → `.harness/f`, `x/f`; `{a..c}`; nested
    too); the word itself when it holds none. A word with white space in it was quoted: the shell leaves it.
    Raises TooMuchToJudge beyond MAX_WORDS words or MAX_STEPS expansions."""
    if "{" not in word or any(c.isspace() for c in word) or ("," not in word and ".." not in word):
        return [word]
    done: list[str] = []
    todo, steps = [word], 0
    while todo:
        current = todo.pop()
        steps += 1
        found = _first_expansion(current)
        if found is None:
            done.append(current)
            continue
        head, parts, tail = found
        todo += [head + part + tail for part in reversed(parts)]
        if steps > MAX_STEPS or len(done) + len(todo) > MAX_WORDS:
            raise TooMuchToJudge(f"{word[:60]}… expands to more words than the guard judges")
    return [w for w in done if w] or [word]


# Stand-ins for the characters of a brace's syntax (and blanks) written quoted or escaped: bash expands only bare ones.
LITERAL = {"{": "\ue000", "}": "\ue001", ",": "\ue002", " ": "\ue003", "\t": "\ue004", ".": "\ue005"}
AS_WRITTEN = {v: k for k, v in LITERAL.items()}


def quoted_braces(raw: str) -> list[str]:
    """The words bash's brace expansion makes of a word as written, its quotes removed after: a quoted or escaped
    `{`, `,`, `}` or blank is a plain character of an alternative (`.harnes{s,\\}}` → `.harness`, `.harnes}`)."""
    out: list[str] = []
    quote, i = "", 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and quote != "'" and i + 1 < len(raw):
            kept = quote == '"' and raw[i + 1] not in '$`"\\'  # in double quotes, `\x` keeps its backslash
            out += ["\\"] * kept + [LITERAL.get(raw[i + 1], raw[i + 1])]
            i += 2
            continue
        if c == quote:
            quote = ""
        elif not quote and c in "'\"":
            quote = c
        else:
            out.append(LITERAL.get(c, c) if quote else c)
        i += 1
    return ["".join(AS_WRITTEN.get(ch, ch) for ch in word) for word in braces("".join(out))]


SEQUENCE = r"\{(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?\}"


def _first_expansion(word: str) -> tuple[str, list[str], str] | None:
    """(what comes before, the alternatives, what comes after) of the first brace in ``word`` that expands."""
    start = word.find("{")
    while start >= 0:
        parts, end = _alternatives(word, start)
        if parts is not None and len(parts) > 1 and end is not None:
            return word[:start], parts, word[end + 1:]
        m = re.match(SEQUENCE, word[start:])
        values = _sequence(m[1], m[2], m[3]) if m else None
        if m and values is not None:
            return word[:start], values, word[start + m.end():]
        start = word.find("{", start + 1)
    return None


def _sequence(first: str, last: str, step: str | None) -> list[str] | None:
    """`{a..e}` and `{1..10..2}` as bash spells them out (letters by code point, numbers with their sign);
    None for a mixed one (`{1..a}`), which bash leaves as written."""
    numeric = first.lstrip("-").isdigit() and last.lstrip("-").isdigit()
    if not numeric and (first.lstrip("-").isdigit() or last.lstrip("-").isdigit()):
        return None
    a, b = (int(first), int(last)) if numeric else (ord(first), ord(last))
    by = max(1, abs(int(step))) if step else 1
    if abs(b - a) // by >= MAX_WORDS:
        raise TooMuchToJudge(f"{{{first}..{last}}} makes more words than the guard judges")
    values = range(a, b + (1 if b >= a else -1), by if b >= a else -by)
    return [str(v) if numeric else chr(v) for v in values]


def _alternatives(word: str, start: int) -> tuple[list[str] | None, int | None]:
    """The comma-separated alternatives of the brace at ``start`` and where it closes (nested braces kept)."""
    depth, cut = 0, start + 1
    parts: list[str] = []
    for i in range(start, len(word)):
        c = word[i]
        if c == "{":
            depth += 1
            if depth > MAX_NESTING:
                raise TooMuchToJudge(f"{word[:60]}… nests braces deeper than the guard follows")
        elif c == "}":
            depth -= 1
            if depth == 0:
                return parts + [word[cut:i]], i
        elif c == "," and depth == 1:
            parts.append(word[cut:i])
            cut = i + 1
    return None, None


def _expand(text: str, known: dict[str, str]) -> str:
    if "$" not in text and "`" not in text:
        return text
    text = substitute_commands(text)
    return re.sub(VARIABLE, lambda m: known.get(m.group(1) or m.group(2), m.group(0)), text)


def substitute_commands(text: str, output: Callable[[str, str], str] | None = None) -> str:
    """``text`` with each `$(…)` and backtick substitution as what ``output`` (inner text, as written) says it
    prints: :func:`literal_output` unless told."""
    output = output or literal_output
    out, i = [], 0
    while i < len(text):
        if text.startswith("$(", i) and not text.startswith("$((", i):
            end = _closing(text, i + 2)
            if end is not None:
                out.append(output(text[i + 2:end], text[i:end + 1]))
                i = end + 1
                continue
        if text[i] == "`":
            end = text.find("`", i + 1)
            if end > i:
                out.append(output(text[i + 1:end], text[i:end + 1]))
                i = end + 1
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _closing(text: str, start: int) -> int | None:
    """Where the `)` that closes the parenthesis open before ``start`` stands. From one `)` to the next, by str's own
    search: a word holding a nested substitution is walked once per `)`, not once per character (F-0374)."""
    depth, j = 1, start
    while True:
        k = text.find(")", j)
        if k < 0:
            return None
        depth += text.count("(", j, k) - 1  # between two `)` only `(` come: the depth is least at the second
        if depth == 0:
            return k
        j = k + 1


# What makes a substitution print something other than its words' text, as the guard reads them: another command or
# a redirect (`|`, `;`, `&`, `<`, `>`, a newline), a subshell or a nested substitution, a comment, an escape echo or
# printf decodes (`\055` is `-`; bash's, zsh's and dash's echo decode differently), a glob, brace or `~` the shell
# expands first. Taken as written, `$(printf '\055n')` would be judged as `\055n` where git is handed `-n` (F-0231).
NOT_LITERAL = frozenset("|;&<>()`\n\\#*?[{~")


def literal_output(inner: str, as_written: str) -> str:
    """What `echo …`/`printf …` of literal words prints, exactly (its last line break dropped, as `$(…)` does);
    anything the guard cannot work out exactly is left as written, which :func:`unresolved` then says."""
    if NOT_LITERAL & set(inner):
        return as_written
    import shlex  # for a substitution alone

    try:
        words = shlex.split(inner)
    except ValueError:
        return as_written
    if not words or any(unresolved(w) for w in words):
        return as_written
    if words[0] == "echo":
        return _echo_output(words[1:], as_written)
    if words[0] == "printf":
        return _printf_output(words[1:], as_written)
    return as_written


def _echo_output(args: list[str], as_written: str) -> str:
    """echo's words after a leading `-n`, which every shell's echo reads alike. Another option word (`-e`, `-E`,
    `-nE`, a second `-n`, zsh's `-`) is read by one shell and printed by another: left as written."""
    if args[:1] == ["-n"]:
        args = args[1:]
    if args and (args[0] == "-" or (len(args[0]) > 1 and args[0][0] == "-" and set(args[0][1:]) <= set("neE"))):
        return as_written
    return " ".join(args)


def _printf_output(args: list[str], as_written: str) -> str:
    """What `printf FORMAT ARGS…` prints where its format holds no conversion but `%s` (and, by NOT_LITERAL, no
    escape): each `%s` takes the next argument, the format used again while arguments remain, as printf does.
    An option (`-v VAR` prints nothing) or another conversion (`%d`, `%b`, `%%`) is left as written."""
    if args[:1] == ["--"]:
        args = args[1:]
    elif args[:1] and args[0].startswith("-"):
        return as_written
    if not args:
        return as_written
    pieces, rest = args[0].split("%s"), args[1:]
    if any("%" in piece for piece in pieces):
        return as_written
    taken = len(pieces) - 1
    if not taken:
        return args[0]  # no conversion: the format once, its arguments unused
    out: list[str] = []
    while True:
        values, rest = rest[:taken], rest[taken:]
        values += [""] * (taken - len(values))
        out += [piece + value for piece, value in zip(pieces, [*values, ""], strict=True)]
        if not rest:
            return "".join(out)
