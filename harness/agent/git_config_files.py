"""The git configuration files a repository's git reads, and whether any may set core.hooksPath — told
from their text, without starting git (the tool guard runs before every tool call an agent makes).

A hooks folder named by core.hooksPath (`.husky`, where `harness install` puts its hooks) is as guarded as
`.git/hooks`, whatever a tool call's text says; and the user's own git config files decide whether the
harness's hooks run as much as the repository's does. Only os: the guard's quick path imports this.
"""

from __future__ import annotations

import os

# Lines that may set the hooks path, directly or through a file git reads from there.
MARKERS = ("hookspath", "[include", "includeif")


def user_config_files(environ: os._Environ[str] | dict[str, str] | None = None) -> tuple[str, ...]:
    """The global and system git config files git reads (absolute), and each as `~/…` where it is in HOME."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or os.path.expanduser("~")
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    found = [env.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config"),
             os.path.join(home, ".config", "git", "config"), env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"]
    out = [os.path.normpath(p) for p in found if p]
    out += ["~" + p[len(home):] for p in out if home and home != "/" and p.startswith(home.rstrip("/") + "/")]
    return tuple(dict.fromkeys(out))


def repo_config_files(root: str) -> tuple[str, ...]:
    dot_git = os.path.join(root, ".git")
    return (os.path.join(dot_git, "config"), os.path.join(dot_git, "config.worktree"))


def may_set_hooks_path(root: str, environ: dict[str, str] | None = None) -> bool:
    """Whether any config git reads in ``root`` may set core.hooksPath (a mention of it, or an include);
    False only when none can, so that git need not be asked."""
    env = os.environ if environ is None else environ
    if any(k.startswith("GIT_CONFIG_KEY_") or k == "GIT_CONFIG_PARAMETERS" for k in env):
        return True
    for path in (*repo_config_files(root), *(p for p in user_config_files(env) if not p.startswith("~"))):
        try:
            with open(path, "rb") as f:
                text = f.read(1 << 20).lower()
        except OSError:
            continue
        if any(m.encode() in text for m in MARKERS):
            return True
    return False
