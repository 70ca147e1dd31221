"""The git configuration files a repository's git reads, and whether any may set core.hooksPath — told
from their text, without starting git (the tool guard runs before every tool call an agent makes).

A hooks folder named by core.hooksPath (`.husky`, where `harness install` puts its hooks) is as guarded as
`.git/hooks`, whatever a tool call's text says; and every config file git reads decides whether the
harness's hooks run as much as the repository's does: the user's (also where a symlink points, as dotfiles
managers link them), a linked worktree's common one, and each file one of them includes. Only regular files
are read, without blocking (a FIFO in a config's place must not hang the guard). Only os: the guard's quick
path imports this.
"""

from __future__ import annotations

import os
import stat

# Lines that may set the hooks path, directly or through a file git reads from there.
MARKERS = (b"hookspath", b"[include", b"includeif")
MAX_BYTES = 1 << 20
# Variables under which the `git config` the guard starts reads other files than these (or more): GIT_CONFIG
# is that command's --file, GIT_COMMON_DIR moves the repository's own config.
ASKED_OF_GIT = frozenset({"GIT_CONFIG_PARAMETERS", "GIT_CONFIG", "GIT_COMMON_DIR"})
MAX_DEPTH = 5  # git's own include depth is 10; a deeper chain is read no further (and git is asked)


def regular_text(path: str) -> bytes | None:
    """The start of ``path`` when it is a regular file (symlinks followed), else None — never blocking."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        return os.read(fd, MAX_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)


def git_dirs(root: str) -> tuple[str, str] | None:
    """(git dir, common dir) of the work tree at ``root``: `.git` itself, or where its `gitdir:` file and
    that folder's `commondir` point (a linked worktree, a submodule, `--separate-git-dir`)."""
    dot_git = os.path.join(root, ".git")
    try:
        mode = os.stat(dot_git).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return dot_git, dot_git
    text = regular_text(dot_git)
    if text is None or not text.startswith(b"gitdir: "):
        return None
    git_dir = os.path.normpath(os.path.join(root, os.fsdecode(text[8:].strip())))
    common = regular_text(os.path.join(git_dir, "commondir"))
    common_dir = os.path.normpath(os.path.join(git_dir, os.fsdecode(common.strip()))) if common else git_dir
    return git_dir, common_dir


def repo_config_files(root: str) -> tuple[str, ...]:
    dirs = git_dirs(root)
    if dirs is None:
        return ()
    git_dir, common = dirs
    return tuple(dict.fromkeys((os.path.join(common, "config"), os.path.join(git_dir, "config.worktree"),
                                os.path.join(common, "config.worktree"))))


def user_config_files(environ: os._Environ[str] | dict[str, str] | None = None) -> tuple[str, ...]:
    """The global and system git config files git reads (absolute; also where a symlink among them points)."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or os.path.expanduser("~")
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    found = [env.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config"),
             os.path.join(home, ".config", "git", "config"), env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"]
    out = [os.path.normpath(p) for p in found if p]
    return tuple(dict.fromkeys([*out, *(os.path.realpath(p) for p in out)]))


def included(files: tuple[str, ...], home: str, depth: int = 0) -> tuple[str, ...]:
    """The files ``files`` include (`include.path`, `includeIf.*.path`), recursively, as git resolves
    them: `~/` under the home folder, a relative path beside the including file (also real paths)."""
    out: list[str] = []
    for path in files:
        text = regular_text(path)
        if text is None or not any(m in text.lower() for m in MARKERS[1:]):
            continue
        section = b""
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith(b"["):
                section = line.lower()
            elif section.startswith(b"[include") and line.lower().startswith(b"path") and b"=" in line:
                value = os.fsdecode(line.split(b"=", 1)[1].strip().strip(b'"'))
                value = os.path.join(home, value[2:]) if value.startswith("~/") else value
                full = os.path.normpath(os.path.join(os.path.dirname(path), value))
                out += [full, os.path.realpath(full)]
    out = list(dict.fromkeys(out))
    if out and depth < MAX_DEPTH:
        out += included(tuple(out), home, depth + 1)
    return tuple(dict.fromkeys(out))


def guarded_files(root: str, environ: dict[str, str] | None = None) -> tuple[str, ...]:
    """Every config file git reads in ``root`` beyond its own `.git/config` (which the judge knows by name),
    each also by its real path: what the guard treats as hook configuration."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or os.path.expanduser("~")
    base = (*user_config_files(env), *repo_config_files(root))
    base = tuple(dict.fromkeys([*base, *(os.path.realpath(p) for p in base)]))
    found = [*base, *included(base, home)]
    # Also as a shell command names them (`>> ~/.gitconfig`): the shell expands the tilde, the judge does not.
    under_home = home.rstrip("/") + "/"
    found += ["~/" + p[len(under_home):] for p in found if home not in ("", "/") and p.startswith(under_home)]
    return tuple(dict.fromkeys(found))


def may_set_hooks_path(root: str, environ: dict[str, str] | None = None) -> bool:
    """Whether any config git reads in ``root`` may set core.hooksPath (a mention of it, or an include);
    False only when none can, so that git need not be asked."""
    env = os.environ if environ is None else environ
    if any(k.startswith("GIT_CONFIG_KEY_") or k in ASKED_OF_GIT for k in env):
        return True  # config given on the side, or read from where git, not this module, looks
    if os.path.lexists(os.path.join(root, ".git")) and git_dirs(root) is None:
        return True  # a .git we cannot read: git may find what we do not
    for path in (*repo_config_files(root), *user_config_files(env)):
        text = regular_text(path)
        if text is not None and any(m in text.lower() for m in MARKERS):
            return True
    return False
