"""Which repository a fetch, pull or push talks to, and the refspecs it writes by, as git reads its words.

Pure. The remote is the first word that is neither an option nor an option's value (`git fetch -j 1 .`: `1`
is `-j`'s); a `file://` URL is its path; a remote's *name* is its configured url (`remote.NAME.url`, read by
the adapter), and a name the guard cannot look up (added on the same line, or by `-c`) may be this
repository. Refspecs come from the command line, from `--refmap`, from a remote's refspec set for one run
(`-c remote.o.fetch=…`, `GIT_CONFIG_*`) and from `git remote add --mirror` (#28's task F-0063, F-0064).
"""

from __future__ import annotations

from collections.abc import Mapping

from harness.agent.judge import guarded_paths

# Options of fetch, pull and push whose value is the next word when not glued (`-j 1`, `--upload-pack X`).
VALUED_LONG = frozenset({"--jobs", "--depth", "--deepen", "--shallow-since", "--shallow-exclude", "--upload-pack",
                         "--server-option", "--negotiation-tip", "--refmap", "--filter", "--submodule-prefix",
                         "--recurse-submodules-default", "--receive-pack", "--exec", "--repo", "--push-option",
                         "--strategy", "--strategy-option"})
VALUED_SHORT = frozenset("josX")
MIRROR_FETCH = "+refs/*:refs/*"  # what `git remote add --mirror=fetch` writes as the remote's refspec


def remote_and_refspecs(rest: list[str]) -> tuple[str | None, list[str]]:
    """(the repository named, the refspecs after it) of `git fetch|pull|push REST`."""
    positional: list[str] = []
    repo_option = None
    i = 0
    while i < len(rest):
        word = rest[i]
        if word == "--":
            positional += rest[i + 1:]
            break
        takes_next = _takes_next(word)
        if word.partition("=")[0] == "--repo":
            repo_option = word.partition("=")[2] if "=" in word else (rest[i + 1] if i + 1 < len(rest) else None)
        if not word.startswith("-") or word == "-":
            positional.append(word)
        i += 2 if takes_next else 1
    if positional:
        return positional[0], positional[1:]
    return repo_option, []


def _takes_next(word: str) -> bool:
    """Whether an option word's value is the next word: `--jobs 2`, `-j 2`, `-qj 2` (not `-j2`, `--jobs=2`)."""
    if word.startswith("--"):
        return "=" not in word and word in VALUED_LONG
    if not word.startswith("-") or len(word) < 2:
        return False
    for j, c in enumerate(word[1:], 1):
        if c in VALUED_SHORT:
            return j == len(word) - 1
    return False


def mirror_refspecs(rest: list[str]) -> list[str]:
    """The refspec `git remote add --mirror[=fetch] NAME URL` writes into the config (none for `=push`)."""
    if rest[:1] != ["add"]:
        return []
    return [MIRROR_FETCH] if any(a in ("--mirror", "--mirror=fetch") for a in rest) else []


def config_urls(pairs: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Remotes' urls set for this one run (`-c remote.o.url=.`)."""
    return {k[len("remote."):-len(".url")]: v for k, v in pairs if k.startswith("remote.") and k.endswith(".url")}


def config_refspecs(pairs: tuple[tuple[str, str], ...]) -> list[str]:
    """Refspecs of a remote set for this one run (`-c remote.o.fetch=…`, `GIT_CONFIG_KEY_n`)."""
    return [v for k, v in pairs if k.startswith("remote.") and k.endswith((".fetch", ".push"))]


def this_repository(remote: str, where: guarded_paths.Where, remote_urls: Mapping[str, str], depth: int = 0) -> bool:
    """Whether a fetch, pull or push names this repository: `.`, its `.git`, its folder by any path or as a
    `file://` URL, a word the shell expands (`"$PWD"`, which the guard cannot rule out), or a remote whose
    url is one of those or is set on the same line (#28's task F-0045, F-0064). A name no remote has is a
    folder's, as git reads it."""
    if "$" in remote or "`" in remote:
        return True
    if remote.startswith("file://"):
        path = remote[len("file://"):]
        return this_repository(path if path.startswith("/") else "/" + path.partition("/")[2], where, {}, depth)
    if "://" in remote or _scp_like(remote):
        return False  # another host's
    url = remote_urls.get(remote) if not depth else None
    if url is not None:  # a remote's name: where its url leads (`$` for one the line itself configures)
        return any(this_repository(url, guarded_paths.Where(where.root, base), {}, 1) for base in (where.cwd, where.root))
    rel = where.resolve(remote.rstrip("/"))
    return rel is not None and rel in ("", ".", ".git")


def _scp_like(remote: str) -> bool:
    """`host:path` (git's scp-like syntax): a colon before any slash."""
    colon = remote.find(":")
    return colon > 0 and "/" not in remote[:colon]
