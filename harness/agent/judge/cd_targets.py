"""Where a cd may lead when its word is not a plain path: a loop's words, a new temporary folder, a glob.

Pure. `for d in packages/*; do (cd "$d" && npm test); done` and `cd "$(mktemp -d)"` are everyday agent lines,
and a guard that called every such cd unknown refused them (#28's task F-0097). Each is read as the folders it
may enter: each word the loop walks; the new folder where mktemp makes it; for a glob, a stand-in folder at the
glob's depth (relative paths from any match resolve alike) and each folder on the way to the record or git's
folder that the glob may match.
"""

from __future__ import annotations

import posixpath
import re

from harness.agent.judge.guarded_paths import GLOB_CHARS, HARNESS
from harness.agent.judge.shell_resolve import unresolved

# `for NAME in WORDS; do` (or a line break before `do`).
LOOP = r"\bfor\s+([A-Za-z_]\w*)\s+in\s+([^;\n]*?)\s*(?:;|\n)\s*do\b"
# Ways a line may set a variable without writing `NAME=`: then a loop's words are not all it may hold.
SETS_BY_NAME = (r"\b(?:eval|read|readarray|mapfile|getopts|declare|typeset|local|source)\b|printf\s+-v|"
                r"(?:^|[;&|(]\s*)\.\s|\$\{\w+:?[=?]")
MKTEMP = r"\$\(mktemp((?:\s[^()`$]*)?)\)"
STAND_IN = "any-folder"  # a folder a glob matches, at its depth
# Folders a glob may match that a relative path from would reach what the guard keeps (besides the top's ancestors).
NEAR_THE_RECORD = ("", HARNESS, f"{HARNESS}/tasks", f"{HARNESS}/tasks/TASK", ".git", ".git/hooks")


def loop_words(text: str) -> dict[str, tuple[str, ...]]:
    """The words each `for NAME in WORDS` of the line walks, for names nothing else on the line sets."""
    if "for" not in text or re.search(SETS_BY_NAME, text):
        return {}
    import shlex

    out: dict[str, tuple[str, ...]] = {}
    for name, listed in re.findall(LOOP, text):
        try:
            words = shlex.split(listed)
        except ValueError:
            words = ["$?"]
        named = len(re.findall(rf"(?<![\w$])(?<!\$\{{){name}\b", text))  # bare, as a line sets it: `d=…`, `read d`
        if any(unresolved(w) for w in words) or named > text.count(f"for {name} "):
            out[name] = ("$?",)  # a word it cannot work out, or the name set elsewhere on the line
        else:
            out[name] = out.get(name, ()) + tuple(words)
    return out


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
    None when where is not known."""
    import shlex

    m = re.fullmatch(MKTEMP, word)
    if not m:
        return None
    args = shlex.split(m[1])
    folder, in_tmp, base, template = False, False, None, None
    while args:
        a = args.pop(0)
        if a.startswith("--tmpdir"):
            in_tmp, base = True, a.partition("=")[2] or None
        elif a == "--directory":
            folder = True
        elif a.startswith("-") and not a.startswith("--") and len(a) > 1:
            folder = folder or "d" in a.split("p")[0]
            in_tmp = in_tmp or "t" in a.split("p")[0]
            if "p" in a:
                in_tmp, base = True, a[a.index("p") + 1:] or (args.pop(0) if args else "")
            if "u" in a.split("p")[0]:
                return ""
        elif not a.startswith("-"):
            template = a
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
