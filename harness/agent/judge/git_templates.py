"""`git init` and `git clone` with a template, when the git folder they fill lies in this repository.

Pure. git copies into the git folder every file of the template that the folder lacks, and `git init` run again in
a repository keeps all it holds and adds the rest: a template holding `refs/replace/<id>`, `info/grafts`, a hook or
`commondir` plants in `.git/` what the guard refuses written any other way (F-0313). The template comes from
`--template` (abbreviated too), `init.templateDir` set for the run (`-c`, `GIT_CONFIG_*`) or `GIT_TEMPLATE_DIR`; or
from configuration the guard cannot read that the line brings in: a file `include.path`/`includeIf.*.path` names,
`--config-env`, the global or system file GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, HOME or XDG_CONFIG_HOME move to a file
the agent may have written (F-0319). The repository's own config is not read by `git init` (it runs outside any
repository, GIT_DIR's config too), nor is GIT_CONFIG (only `git config` reads it), and the user's config files are
guarded whole. git's default template adds only sample hooks (`pre-commit.sample`, …), which git never runs: a plain
`git init` stays allowed, here and anywhere.
"""

from __future__ import annotations

from harness.agent.judge import guarded_paths
from harness.agent.judge.denials import Denial, unresolved_denial
from harness.agent.judge.git_config_view import RunConfig, includes_a_file
from harness.agent.judge.git_runs import abbreviates
from harness.agent.judge.shell_resolve import unresolved

# The long options that take the next word as their value (unless written `--NAME=VALUE`), and the short ones.
VALUED = {"init": (("template", "separate-git-dir", "initial-branch", "object-format", "ref-format"), "b"),
          "clone": (("template", "reference", "reference-if-able", "origin", "branch", "upload-pack", "depth",
                     "shallow-since", "shallow-exclude", "separate-git-dir", "config", "server-option", "filter",
                     "bundle-uri", "jobs", "ref-format", "revision"), "objucj")}


# The variables that give git init a global or system config file the guard does not read (GIT_DIR's and
# GIT_CONFIG's are not read by it: checked).
TEMPLATE_ENV = ("GIT_CONFIG_GLOBAL=", "GIT_CONFIG_SYSTEM=", "HOME=", "XDG_CONFIG_HOME=")


def template_denial(sub: str, rest: list[str], options: list[str], env: tuple[str, ...], config: RunConfig,
                    where: guarded_paths.Where) -> Denial | None:
    """The denial of `git [OPTIONS] init|clone REST` copying a template into a git folder of this repository."""
    if sub not in VALUED:
        return None
    named, positional = _read(sub, rest)
    source = _template_source(named, env, config)
    if source is None:
        return None
    for folder in _git_folders(sub, named, positional, options, env):
        if unresolved(folder):
            return unresolved_denial(folder, f"the folder `git {sub}` copies its template into")
        if where.resolve(folder) is not None:
            return Denial("hook-file", f"`git {sub}` with a template ({source}) copies into the git folder of "
                          f"`{folder}`, in this repository, each file of the template it lacks: a hook, a replace ref "
                          "or info/grafts among them would be planted where the guard refuses them written any other way",
                          f"run `git {sub}` without a template (`--template=` copies none, whatever the configuration says; "
                          "git's own adds only sample hooks it never runs), or "
                          "make the repository outside this one (`git init /tmp/NAME --template=…`)")
    return None


def _read(sub: str, rest: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """(each long option as (its name as typed, its value), the positional words), as git's option parser reads
    them: a value after `=` or in the next word, `-bNAME` or `-b NAME`, a cluster of flags, `--` ending options."""
    long_valued, short_valued = VALUED[sub]
    named: list[tuple[str, str]] = []
    positional: list[str] = []
    i = 0
    while i < len(rest):
        a, following = rest[i], (rest[i + 1] if i + 1 < len(rest) else "")
        if a == "--":
            positional += rest[i + 1:]
            break
        if a.startswith("--"):
            opt, eq, value = a.partition("=")
            takes = not eq and any(abbreviates(opt, f"--{n}") for n in long_valued)
            named.append((opt, value if eq else following if takes else ""))
            i += takes
        elif a.startswith("-") and len(a) > 1:
            at = next((j for j, ch in enumerate(a[1:], 1) if ch in short_valued), None)
            i += at == len(a) - 1  # the value is the next word (`-b main`), else the rest of the cluster
        else:
            positional.append(a)
        i += 1
    return named, positional


def _template_source(named: list[tuple[str, str]], env: tuple[str, ...], config: RunConfig) -> str | None:
    """How the command is given a template, or None, in git's order: `--template` (the last one; `--no-template`
    drops it), GIT_TEMPLATE_DIR, init.templateDir. An empty one is none (`--template=`, `GIT_TEMPLATE_DIR=`: git
    copies nothing, whatever the configuration says)."""
    values = dict(e.partition("=")[::2] for e in env)
    given = [(opt, value) for opt, value in named if abbreviates(opt, "--template") or opt == "--no-template"]
    if given and given[-1][0] != "--no-template":
        opt, value = given[-1]
        return f"`{opt}={value}`" if value else None
    if "GIT_TEMPLATE_DIR" in values:
        return f"GIT_TEMPLATE_DIR={values['GIT_TEMPLATE_DIR']}" if values["GIT_TEMPLATE_DIR"] else None
    found = [value for key, value in config.pairs if key.lower() == "init.templatedir"]
    if found and found[-1]:
        return f"init.templateDir={found[-1]}"
    unread = [what for what in config.opaque if _may_give_a_template(what)]
    return f"{unread[0]}, configuration the guard cannot read, which may set init.templateDir" if unread else None


def _may_give_a_template(opaque: str) -> bool:
    """Whether configuration the guard cannot read (a RunConfig.opaque entry) may hold git init's init.templateDir:
    an included file, `--config-env` of that key or of an include, a global or system file moved (F-0319)."""
    if opaque.startswith("--config-env "):
        key = opaque[len("--config-env "):].lower()
        return key == "init.templatedir" or includes_a_file(key)
    return opaque.startswith(TEMPLATE_ENV) or includes_a_file(opaque.partition("=")[0])


def _git_folders(sub: str, named: list[tuple[str, str]], positional: list[str], options: list[str],
                 env: tuple[str, ...]) -> list[str]:
    """The folders whose git folder the command fills, relative to where it runs: `git init`'s folder (else here),
    `git clone`'s (else a new one here), `--separate-git-dir`, `--git-dir` and GIT_DIR (any may be it; all count)."""
    at = 0 if sub == "init" else 1
    folders = [positional[at] if len(positional) > at else "."]
    folders += [value for opt, value in named if abbreviates(opt, "--separate-git-dir") and value]
    for k, word in enumerate(options):
        opt, eq, value = word.partition("=")
        if opt == "--git-dir":
            folders.append(value if eq else (options[k + 1] if k + 1 < len(options) else ""))
    folders += [e.partition("=")[2] for e in env if e.startswith("GIT_DIR=")]
    return [f for f in folders if f]
