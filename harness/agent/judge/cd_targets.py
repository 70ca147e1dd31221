"""Where a cd may lead when its word is not a plain path: a loop's words, a new temporary folder, a glob.

Pure. `for d in packages/*; do (cd "$d" && npm test); done` and `cd "$(mktemp -d)"` are everyday agent lines,
and a guard that called every such cd unknown refused them (#28's task F-0097). Each is read as the folders it
may enter: each word the loop walks; the new folder where mktemp makes it; for a glob, a stand-in folder at the
glob's depth (relative paths from any match resolve alike) and each folder on the way to the record or git's
folder that the glob may match.
"""

from __future__ import annotations

import posixpath

from harness.agent.judge.guarded_paths import GLOB_CHARS, HARNESS
from harness.agent.judge.shell_resolve import unresolved
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none

# `for NAME in WORDS; do` (or a line break before `do`).
LOOP = r"\bfor\s+([A-Za-z_]\w*)\s+in\s+([^;\n]*?)\s*(?:;|\n)\s*do\b"
# Ways a line may set a variable without writing `NAME=`: then a loop's words are not all it may hold.
SETS_BY_NAME = (r"\b(?:eval|read|readarray|mapfile|getopts|declare|typeset|local|source|select|let|unset)\b|"
                r"printf\s+-v|(?:^|[;&|(]\s*)\.\s|\$\{\w+:?[=?]|\(\(")
# A word of a loop's list as written: quoted parts kept whole.
RAW_WORD = r"""(?:[^\s'"]+|'[^']*'|"[^"]*")+"""
# `$(mktemp …)` of plain words alone: a `;`, a redirect or a quote-less `$` makes it another command (F-0105).
MKTEMP = r"\$\(mktemp((?:\s+[\w./@%+=:,~'\"-]+)*)\s*\)"
MKTEMP_LONG = ("--directory", "--dry-run", "--quiet", "--suffix", "--tmpdir", "--help", "--version")
STAND_IN = "any-folder"  # a folder a glob matches, at its depth
# Folders a glob may match that a relative path from would reach what the guard keeps (besides the top's ancestors).
NEAR_THE_RECORD = ("", HARNESS, f"{HARNESS}/tasks", f"{HARNESS}/tasks/TASK", ".git", ".git/hooks")


def loop_words(text: str) -> dict[str, tuple[str, ...]]:
    """The words each `for NAME in WORDS` of the line walks (braces expanded, as the shell does before the loop
    runs; #28's task F-0107), for names nothing else on the line sets."""
    if "for" not in text or re.search(SETS_BY_NAME, text):
        return {}
    from harness.agent.judge.shell_resolve import TooMuchToJudge, quoted_braces

    loops = re.findall(LOOP, text)
    out: dict[str, tuple[str, ...]] = {}
    for name, listed in loops:
        try:
            words = [w for raw in re.findall(RAW_WORD, listed) for w in quoted_braces(raw)]
        except TooMuchToJudge:
            words = ["$?"]
        if any(unresolved(w) for w in words) or _set_elsewhere(name, text, loops):
            out[name] = ("$?",)  # a word it cannot work out, or the name set elsewhere on the line
        else:
            out[name] = out.get(name, ()) + tuple(words)
    return out


def _set_elsewhere(name: str, text: str, loops: list[tuple[str, str]]) -> bool:
    """Whether the line sets ``name`` besides its `for NAME in WORDS` loops: `d=…`, `d+=…`, `d[0]=…`, or a loop
    over the positional words (`for d; do`). A `-d` option is no assignment (#28's task F-0112)."""
    if re.search(rf"(?<![\w$-]){name}(?:\[[^\]]*\])?\+?=", text):
        return True
    return len(re.findall(rf"\bfor\s+{name}\b", text)) != sum(n == name for n, _ in loops)


def with_loop_words(word: str, loops: dict[str, tuple[str, ...]]) -> list[str] | None:
    """``word`` with each loop variable in it put in, once per word the loop walks; None when a part stays unknown."""
    found: list[str] = [word]
    for name, words in loops.items():
        pattern = rf"\$(?:\{{{name}\}}|{name}(?!\w))"
        found = [_put(pattern, w, f) for f in found for w in words] if re.search(pattern, word) else found
    return None if any(unresolved(f) for f in found) else found


def _put(pattern: str, value: str, word: str) -> str:
    return re.sub(pattern, lambda _: value, word)


def mktemp_folder(word: str, cwd: str, tmp: str) -> str | None:
    """The folder `$(mktemp -d …)` makes (its random part a stand-in), "" when it makes none (a file, or `-u`),
    None when where is not known: a substitution holding more than mktemp's plain words (`; echo …`; #28's task
    F-0105), or an option mktemp would refuse. Long options as getopt_long reads them, abbreviated too (F-0106)."""
    import shlex

    m = re.fullmatch(MKTEMP, word)
    if not m:
        return None
    args = shlex.split(m[1])
    folder, in_tmp, base, template = False, False, None, None
    while args:
        a = args.pop(0)
        if a == "--":
            template = args[0] if args else template
            break
        if not a.startswith("-") or a == "-":
            template = a  # (getopt reads options after it too: `mktemp x.XXXX -d`)
            continue
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            known = [k for k in MKTEMP_LONG if k.startswith(name)]
            if len(known) != 1:
                return None  # unknown or ambiguous: mktemp refuses it
            folder = folder or known[0] == "--directory"
            if known[0] == "--dry-run":
                return ""
            if known[0] == "--tmpdir":
                in_tmp, base = True, value if eq else base
            if known[0] == "--suffix" and not eq and args:
                args.pop(0)
            continue
        for j, ch in enumerate(a[1:], 1):
            if ch == "u":
                return ""
            if ch == "p":
                in_tmp, base = True, a[j + 1:] or (args.pop(0) if args else "")
                break
            if ch not in "dqt":
                return None
            folder, in_tmp = folder or ch == "d", in_tmp or ch == "t"
    if not folder:
        return ""
    where = base if base is not None else (tmp if in_tmp or template is None else cwd)
    if not where or unresolved(where):
        return None
    return posixpath.normpath(posixpath.join(cwd, where, posixpath.dirname(template or ""), "tmp." + STAND_IN))


def glob_folders(target: str, cwd: str, root: str) -> list[str]:
    """The folders a glob may enter: a stand-in at its depth, and each folder on the way to the record or to git's
    folders (the top, its ancestors, the record's folders) that it matches as bash does (a leading dot only
    by a dot)."""
    full = posixpath.normpath(posixpath.join(cwd, target))
    parts = full.split("/")
    out = ["/".join(STAND_IN if GLOB_CHARS & set(p) else p for p in parts)]
    ancestors = [root.rsplit("/", i)[0] or "/" for i in range(1, root.count("/") + 1)]
    for near in [*ancestors, *(posixpath.join(root, n) if n else root for n in NEAR_THE_RECORD)]:
        if near not in out and _matches(parts, near.split("/")):
            out.append(near)
    return out


def _matches(pattern: list[str], path: list[str]) -> bool:
    from fnmatch import fnmatchcase

    return len(pattern) == len(path) and all(  # (bash's `[^…]` is fnmatch's `[!…]`)
        fnmatchcase(name, pat.replace("[^", "[!")) and not (name.startswith(".") and pat[:1] in ("*", "?"))
        for pat, name in zip(pattern, path, strict=True))
