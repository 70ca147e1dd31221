"""The bypass denier: which agent actions would sidestep the harness, and what to do instead.

Pure: a command line (or the paths an edit tool writes) and where it runs in, a
:class:`Denial` or None out. Every rule names the legitimate command, because an agent
told only "no" tries the next shortcut. Look-alikes stay allowed: a commit message that
mentions --no-verify, `git status`, `grep -n`, `cat events.jsonl`, `git notes show`.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable

from harness.agent.judge import guarded_paths
from harness.agent.judge.bypass_files import check_files, hook_or_protected
from harness.agent.judge.bypass_git import check_git
from harness.agent.judge.cd_targets import loop_words
from harness.agent.judge.denials import (
    HOOKS_PATH,
    Denial,
    delete_denial,
    hook_file_denial,
    hooks_path_denial,
    is_notes_ref,
    protected_denial,
    unresolved_denial,
)
from harness.agent.judge.git_config_view import MACHINERY, NO_SETUP, OPAQUE_ENV, GitSetup
from harness.agent.judge.git_older_state import check_patch_program
from harness.agent.judge.glob_reach import looseness
from harness.agent.judge.line_links import link_made_with_more
from harness.agent.judge.link_copies import found_through_links, link_copied_with_more
from harness.agent.judge.patch_text import DELETE_HEADER, PROGRAMS, UNREADABLE_INSTEAD, UNREADABLE_REASON, patch_paths
from harness.agent.judge.plain_line import operators
from harness.agent.judge.python_invocation import HARNESS_MODULES, inline_code, module_run, script_run
from harness.agent.judge.real_spelling import by_real_names
from harness.agent.judge.shell_commands import WRITE_REDIRECTS, ShellSyntaxError, SimpleCommand, command_line, parse
from harness.agent.judge.shell_folders import entered, spelled_in
from harness.agent.judge.shell_resolve import TooMuchToJudge, declared, resolve, unresolved
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none
from harness.core.value_class import dataclass, replace

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.agent.judge.link_copies import LinkLookup

DEFAULT_NOTES_REF = "refs/notes/harness"
# Harness hooks in the framework's manual stage: they never run on a commit or push, so SKIP
# naming them skips nothing, and denying it would teach that every SKIP is forbidden.
MANUAL_HOOKS = frozenset({"harness-gate", "harness-audit"})
MAX_NESTED_LINES = 8
# `$(git rev-parse --git-dir)` and kin name folders of the repository the guard already knows.
# (A pattern, compiled by re's own cache when a word holds `$(git`: most command lines never need it, and
# compiling the guard's patterns at import cost a judged command more than matching them.)
REV_PARSE = r"\$\(git rev-parse (--show-toplevel|--git-dir|--git-common-dir|--git-path ([\w./-]+))\)"


# A path word's real spelling when a symlink leads it into `.harness/` or `.git/` (given the folder the
# command runs in), else None. The caller looks on disk (harness/agent/real_names.py); the rules stay pure.
RealName = Callable[[str, str], "str | None"]


def check_shell(text: str, where: guarded_paths.Where, notes_ref: str = DEFAULT_NOTES_REF,
                setup: GitSetup = NO_SETUP, depth: int = 0, real_name: RealName | None = None,
                links: LinkLookup | None = None) -> Denial | None:
    """The first bypass in a shell command line, or None. Raises ShellSyntaxError when the
    text cannot be read at all (the caller decides what an unreadable command means).
    ``setup`` is what the repository's git configuration says (its aliases, its hooks folders).
    With ``real_name``, each command is judged a second time with its words as expanded (`$(echo h)`,
    `d=h; $d`) spelled by their real paths: `h` a symlink to `.harness` names the record (#28's task F-0050).
    ``links``: whether a path is a link or holds one, on disk (harness/agent/judge/link_copies.py)."""
    if depth > MAX_NESTED_LINES:
        return Denial("unresolved", "the command runs command lines nested too deeply to judge",
                      "run the command it stands for, written out")
    exported: tuple[str, ...] = ()

    def judge(line: str) -> Denial | None:
        return check_shell(line, where, notes_ref, setup, depth + 1, real_name, links)

    commands = _commands_of(text, where.root, judge)
    if isinstance(commands, Denial):
        return commands
    if where.nested and len(commands) != 1:
        where = replace(where, nested=())  # a line that does more may move the nested repository first (F-0116)
    chained = _and_chained(text, commands)
    alone = len(commands) == 1  # a link the command renames is used by nothing after it (real_spelling, F-0046)
    loops = loop_words(text)  # what a loop variable a cd names may hold
    loose = looseness(text)  # the line sets glob options: its globs may match more
    folders = [where]  # every folder the line may be in by now (harness/agent/judge/shell_folders.py)
    visited = [where]  # every folder the line has been in (a cd back may return to any)
    lost = None        # a folder change the guard could not work out: nothing after it can be judged
    steered = False    # the line sets HOME, CDPATH or OLDPWD: where a later cd or `~` leads is unknown
    for cmd in commands:
        steered = steered or _steers(cmd)
        if lost is not None and not cmd.changes_folder:
            return unresolved_denial(lost, "the folder the line is in after it (the commands after it could "
                                     "write anywhere)")
        if steered and _names_home(cmd):
            return unresolved_denial("~", "the home folder, after the line sets HOME (#28's task F-0078)")
        denial, seen = _in_folders(cmd, folders, functools.partial(_judged_in, notes_ref=notes_ref, setup=setup, exported=exported,
                                                                   judge=judge, alone=alone, line=tuple(commands), links=links), real_name, loose)
        if denial:
            return denial
        setup = setup.without_line_facts()  # what the adapter read was true before the line's first command
        exported += declared(cmd)  # `declare` without -x too: erring towards what git could see
        # A shell variable pytest or coverage reads, however it comes to be exported (`export NAME`, `set -a`):
        # F-0135, F-0152.
        exported += tuple(a for a in cmd.assignments if a.startswith(TEST_TOOL_ENV)) if not cmd.words else ()
        if cmd.changes_folder and lost is None:
            lost, folders = _enter(seen, folders, chained, steered, visited, loops)
            visited += [f for f in folders if f not in visited]
    if len(folders) > 1 and re.search(RUNS_LATER, text):
        # A function's body, a trap's action, a loop's next round run after the cds that come later on the line:
        # each command is judged again in every folder the line reaches (#28's task F-0075).
        for cmd in commands:
            if not cmd.changes_folder:
                denial, _ = _in_folders(cmd, folders, functools.partial(_judged_in, notes_ref=notes_ref, setup=setup,
                                                                        exported=exported, judge=judge, line=tuple(commands),
                                                                        links=links), real_name, loose)
                if denial:
                    return denial
    return None


def _commands_of(text: str, root: str, judge: Callable[[str], Denial | None]) -> list[SimpleCommand] | Denial:
    """The simple commands a line runs as the judge reads them: expanded, the line's aliases put in, a prefix word
    the line redefines read as the shell's own; or the Denial of a line too much to judge, of the line read
    with its extglob groups as globs, or of a line that makes a symbolic link and runs more."""
    try:
        commands = [_repository_folders(c, root) for c in resolve(parse(text))]
    except TooMuchToJudge as exc:  # (#28's task F-0086, F-0087)
        return Denial("unresolved", str(exc), "write the words out, or split the command")
    try:
        commands = _aliases_expanded(commands, root)
    except TooMuchToJudge as exc:
        return Denial("unresolved", str(exc), "write the commands out")
    if "(" in text and re.search(EXTGLOB_GROUP, text):
        # `@(.harness)`, `.harnes+(s)`: with extglob on (the line's, or the agent shell's own), a pattern. Judged
        # again with each group as `*` under loose glob options (#28's task F-0104).
        try:
            denial = judge("shopt -s extglob\n" + re.sub(EXTGLOB_GROUP, _as_star, text))
        except ShellSyntaxError:
            denial = None
        if denial:
            return denial
    denial = link_made_with_more(commands)  # its later words cannot be followed (harness/agent/judge/line_links.py)
    if denial:
        return denial
    defined = _defined_names(text, commands)
    # `nice() { "$@"; }; nice cd …` runs the cd in the shell itself (#28's task F-0111)
    return [replace(c, in_child="") if c.in_child in defined else c for c in commands] if defined else commands


# An extglob group inside a word: `@(…)`, `+(…)`, `*(…)`, `?(…)`, `!(…)` (not `$(…)`, `<(…)`, `>(…)`).
EXTGLOB_GROUP = r"(?<![$<>])[?*+@!]\(([^()]*)\)"
# `NAME()` and `function NAME`: a function the line defines.
FUNCTION = r"(?:^|[\s;&|(){}])([\w.:+-]+)\s*\(\s*\)|\bfunction\s+([\w.:+-]+)"


def _as_star(group: re.Match[str]) -> str:
    """An extglob group as the glob that matches at least as much (`@(.harness)` names a dotted folder)."""
    dotted = [re.sub(r"^[\\'\"\[]+", "", alternative).startswith(".") for alternative in group[1].split("|")]
    return ".*" if any(dotted) else "*"  # (`@(\.harness)`, `@(x|".harness")` too: #28's task F-0121)


def _defined_names(text: str, commands: list[SimpleCommand]) -> set[str]:
    """The functions and aliases the line defines: a prefix word among them runs in the shell, not a program."""
    names = {a or b for a, b in re.findall(FUNCTION, text)} if "(" in text or "function" in text else set()
    return names | {n for c in commands if c.program == "alias" for n in _pairs_of(c.words[1:])}


# What runs later than where it is written: functions, loops, traps.
RUNS_LATER = r"\(\s*\)\s*\{|\bfunction\s|\b(?:for|while|until|select)\b|\btrap\b"


def _judged_in(there: guarded_paths.Where, *, notes_ref: str, setup: GitSetup, exported: tuple[str, ...],
             judge: Callable[[str], Denial | None], alone: bool = False, line: tuple[SimpleCommand, ...] = (),
             links: LinkLookup | None = None) -> CommandSite:
    return CommandSite(there, notes_ref, setup, exported, judge, alone, line, links)


def _in_folders(cmd: SimpleCommand, folders: list[guarded_paths.Where], context: Callable[[guarded_paths.Where], CommandSite],
                real_name: RealName | None, loose: int = 0) -> tuple[Denial | None, list[SimpleCommand]]:
    """The first denial of ``cmd`` judged in each of ``folders`` (spelled there, and by real paths), and the
    spellings of a cd (what it may enter is worked out from them)."""
    seen: list[SimpleCommand] = []
    for here in folders:
        site = context(here)
        denial = link_copied_with_more(cmd, site.line, here.cwd, site.links) if site.links else None
        if denial:  # a link it copies as a link, used later on the line by a name the guard cannot follow (read 43's A)
            return denial, seen
        denial = _moved_link_denial(cmd, here, site) if site.links else None
        if denial:  # a relative link copied into another folder, where it leads into the record (F-0064)
            return denial, seen
        found = found_through_links(cmd, here.cwd, site.links) if site.links else cmd  # (read 43's B)
        for judged in (cmd, found) if found is not cmd else (cmd,):
            for spelled, there in spelled_in(judged, here, folders, loose):
                denial, real = _judged_with_real_names(spelled, context(there), real_name)
                if denial:
                    return (denial if judged is cmd else _through_handed_links(denial, cmd)), seen
                seen += [c for c in (spelled, real) if c is not None] if cmd.changes_folder and judged is cmd else []
    return None, seen


def _moved_link_denial(cmd: SimpleCommand, here: guarded_paths.Where, site: CommandSite) -> Denial | None:
    """The denial of a copy or move that puts a relative link where it leads into the record: as `ln -s TEXT NEW`
    is refused there, so is the copy that makes that link (F-0064)."""
    from harness.agent.judge.bypass_files import moved_link_leads_to_guarded
    from harness.agent.judge.link_copies import links_a_copy_moves

    assert site.links is not None
    moved = links_a_copy_moves(cmd, here.cwd, site.links)
    if moved is None:
        return Denial("link", f"`{' '.join(cmd.words)}` copies links as links the guard cannot follow to where they "
                      "land (more names or entries than it looks at, a folder it cannot read, or a link whose `..` "
                      "comes after a name, which another copied link may redirect): one may lead into the harness's "
                      "record from there",
                      "name fewer sources, or copy what the links lead to (`cp -L`)")
    for text, new in moved:
        if moved_link_leads_to_guarded(text, new, here, site.setup.hooks_dirs):
            return Denial("link", f"`{' '.join(cmd.words)}` puts a link reading {text} at {new}, where it leads into "
                          "the harness's record or git's folder: a second name for it, as `ln -s` would make there",
                          "copy what the link leads to (`cp -L`), or leave the link where it is")
    return None


def _through_handed_links(denial: Denial, cmd: SimpleCommand) -> Denial:
    """``denial`` of ``cmd`` judged as run by a find that follows links, said as such: the line names no guarded
    path itself; the links under the find's start (or entries past what the guard looks at) may lead to one."""
    return Denial("link", f"`{' '.join(cmd.words)}` runs on what a find hands it, and the find's start folder holds a "
                  "link that may lead into the record (or more entries than the guard looks at); judged as a find that "
                  f"follows links, it may reach the record — {denial.reason}",
                  "add `-type f` with a name test, use `-delete`, or start the find where no such link is")


def _aliases_expanded(commands: list[SimpleCommand], root: str) -> list[SimpleCommand]:
    """The commands with each alias the line defines (`alias w='tee -a'`) expanded where a later command uses it
    (bash does once `expand_aliases` is on, as an agent host's shell often has it; #28's task F-0076)."""
    aliases: dict[str, str] = {}
    out: list[SimpleCommand] = []
    for cmd in commands:
        if cmd.words and cmd.words[0] in aliases and len(out) < 4 * len(commands) + 16:
            import shlex  # here: shlex imports re, and a line that defines no alias needs neither

            line = aliases[cmd.words[0]] + " " + shlex.join(cmd.words[1:])
            out += [_repository_folders(c, root) for c in resolve(parse(line))]
            out += [replace(cmd, words=())] if cmd.redirects or cmd.assignments else []
            continue
        if cmd.program == "alias":
            aliases.update(_pairs_of(cmd.words[1:]))
        out.append(cmd)
    return out


def _pairs_of(words: tuple[str, ...]) -> dict[str, str]:
    return {name: value for name, eq, value in (w.partition("=") for w in words) if eq and name}


# Variables that decide where a cd (or `~`, or `$(mktemp -d)`) leads: set on the line, they make the guard's reading of it unknown.
STEERING = frozenset({"HOME", "CDPATH", "OLDPWD", "TMPDIR"})
MAX_FOLDERS = 16  # the folders a line may be in that the guard follows; more, and what follows is unknown


def _steers(cmd: SimpleCommand) -> bool:
    """Whether ``cmd`` sets HOME, CDPATH or OLDPWD for what follows: alone (`HOME=x;`), exported, or before a cd
    or a command line it runs. Before another program it sets it for that program alone (#28's task F-0096)."""
    scoped = bool(cmd.words) and not cmd.changes_folder and command_line(cmd) is None
    names = [*([] if scoped else cmd.assignments), *declared(cmd)]
    return any(a.partition("=")[0] in STEERING for a in names)


def _names_home(cmd: SimpleCommand) -> bool:
    words = (*cmd.words, *(t for _, t in cmd.redirects), *(a.partition("=")[2] for a in cmd.assignments))
    return any(w.startswith("~") for w in words) or (cmd.changes_folder and len(cmd.words) == 1)


def _and_chained(text: str, commands: list[SimpleCommand]) -> bool:
    """Whether ``text`` is plain simple commands joined by `&&` alone, each run only once the one before it
    succeeded (nothing nested, piped or scoped): then a cd that leads on has entered its folder, and the
    folders before it need not be kept (`cd build && tar -xf ../dist.tar`; #28's task F-0089)."""
    ops = operators(text)
    return ops is not None and all(op == "&&" for op in ops) and len(commands) == len(ops) + 1


def _judged_with_real_names(cmd: SimpleCommand, ctx: CommandSite, real_name: RealName | None
                            ) -> tuple[Denial | None, SimpleCommand | None]:
    """The command's denial, judged as written and (when nothing denies it) with its words spelled by the
    real paths symlinks lead them to; and that real spelling, when there is one."""
    denial = _check_command(cmd, ctx)
    real = by_real_names(cmd, ctx.where.cwd, real_name, ctx.alone) if real_name and not denial else None
    return (_check_command(real, ctx) if real is not None else denial), real


def _enter(changes: list[SimpleCommand], folders: list[guarded_paths.Where], chained: bool, steered: bool,
           visited: list[guarded_paths.Where], loops: dict[str, tuple[str, ...]]) -> tuple[str | None, list[guarded_paths.Where]]:
    """(what could not be worked out, or None; the folders the line may be in after a cd, as written and by
    its real path (`cd h`, h a symlink to .harness, enters .harness)). A chained line is in the folders the cd
    entered; any other keeps the folders before it too (the cd may have failed, or run in a subshell)."""
    if steered:
        return " ".join(changes[0].words) if changes else "cd", folders
    new: list[guarded_paths.Where] = []
    back = False  # `cd -`, `popd`: to a folder the line was in before, which a chained line has left
    for change in changes:
        found = entered(change, folders, loops)
        if found is None:
            return " ".join(change.words), folders
        back = back or not found
        new += [f for f in found if f not in new]
    if chained and back:
        new, chained = [f for f in visited if f not in new] + new, False  # (#28's task F-0091)
    out = (new or folders) if chained else folders + [f for f in new if f not in folders]
    if len(out) > MAX_FOLDERS:
        return "the line's folder changes (more than the guard follows)", folders
    return None, out


def _repository_folders(cmd: SimpleCommand, root: str) -> SimpleCommand:
    """`$(git rev-parse --git-dir)/hooks` as the folder it names in the repository the guard judges."""
    def known(word: str) -> str:
        return re.sub(REV_PARSE, lambda m: root if m[1] == "--show-toplevel" else
                             f"{root}/.git" + (f"/{m[2]}" if m[2] else ""), word) if "$(git" in word else word

    return replace(cmd, words=tuple(known(w) for w in cmd.words),
                   redirects=tuple((op, known(t)) for op, t in cmd.redirects))


@dataclass(frozen=True)
class CommandSite:
    """What judging one command line needs besides the command: where, the notes ref, git's setup."""

    where: guarded_paths.Where
    notes_ref: str
    setup: GitSetup
    exported: tuple[str, ...]                     # NAME=value exported earlier on the line
    judge: Callable[[str], Denial | None]         # judges a command line a git alias runs
    alone: bool = False                           # the command is the line's only one
    line: tuple[SimpleCommand, ...] = ()          # the line's commands
    links: LinkLookup | None = None               # whether a path (from a folder) is a link or holds one (walk)


def check_write(path: str, where: guarded_paths.Where, setup: GitSetup = NO_SETUP) -> Denial | None:
    """A file an edit tool is about to write (or a patch is about to add, change or delete)."""
    found = guarded_paths.protected(where.resolve(path))
    if found:
        return protected_denial(path, found)
    if guarded_paths.hook_config(where, path, setup.hooks_dirs) and where.resolve(path) != guarded_paths.FRAMEWORK_CONFIG:
        return hook_file_denial(path)
    return None


def check_delete(path: str, where: guarded_paths.Where, setup: GitSetup = NO_SETUP) -> Denial | None:
    """A file an edit tool's patch deletes: nothing of the harness's record may go, nor a hook file."""
    if guarded_paths.harness_state(where.resolve(path)):
        return delete_denial(path)
    return hook_file_denial(path) if guarded_paths.hook_config(where, path, setup.hooks_dirs) else None


# -- one simple command -------------------------------------------------------------------

def _check_command(cmd: SimpleCommand, ctx: CommandSite) -> Denial | None:
    return (_check_env(cmd.assignments + declared(cmd), ctx.notes_ref, exporting=bool(declared(cmd)))
            or _check_redirects(cmd, ctx)
            or _check_program(cmd, ctx))


def _check_env(assignments: tuple[str, ...], notes_ref: str, exporting: bool = False) -> Denial | None:
    for a in assignments:
        name, _, value = a.partition("=")
        if name == "SKIP":
            denial = _check_skip(value)
            if denial:
                return denial
        if (name.startswith("GIT_CONFIG_KEY_") and value.lower() == HOOKS_PATH) or (
                name == "GIT_CONFIG_PARAMETERS" and HOOKS_PATH in value.lower()):
            return hooks_path_denial()
        if name in ("GIT_NOTES_REF", "GIT_NOTES_REWRITE_REF") and (
                unresolved(value) or any(is_notes_ref(v, notes_ref) or _glob_names(v, notes_ref) for v in value.split(":"))):
            return Denial("notes-env", f"GIT_NOTES_REF={value} points git notes at the harness's stamps",
                          "the stamps are written by the post-commit hook (`harness stamp` by hand)")
        if exporting and name in OPAQUE_ENV:
            return Denial("config-source", f"exporting {name} makes every later git command read configuration "
                          "the guard cannot see", "leave it unset; the repository's own configuration is read as usual")
    return None


def _glob_names(pattern: str, ref: str) -> bool:
    """`refs/notes/*` (GIT_NOTES_REWRITE_REF takes globs) names the stamps' ref too."""
    return "*" in pattern and ref.startswith(pattern.split("*", 1)[0])


def _check_skip(value: str) -> Denial | None:
    if unresolved(value):
        return unresolved_denial(value, "the pre-commit framework's SKIP")
    skipped = [h.strip() for h in value.split(",") if h.strip().startswith("harness")]
    if any(h not in MANUAL_HOOKS for h in skipped):
        return Denial("skip-hook", f"SKIP={value} turns off the harness's own git hooks",
                      "commit without SKIP; when a harness hook refuses, fix what it names (`harness status`)")
    return None


def _check_redirects(cmd: SimpleCommand, ctx: CommandSite) -> Denial | None:
    for op, target in cmd.redirects:
        if op in WRITE_REDIRECTS and not target.isdigit():
            denial = hook_or_protected([target], ctx.where, ctx.setup.hooks_dirs)
            if denial:
                return denial
    return None


def _check_program(cmd: SimpleCommand, ctx: CommandSite) -> Denial | None:
    prog, args = cmd.program, list(cmd.words[1:])
    if prog.startswith("git-") and len(prog) > 4:
        # git's own programs by their names (`$(git --exec-path)/git-commit`, `git-update-ref`) are git's
        # subcommands; other `git-*` programs (git-lfs) read as `git lfs`, which the git rules let pass.
        return _check_program(replace(cmd, words=("git", prog[4:], *args)), ctx)
    if prog == "git":
        planted = [a for a in cmd.assignments if a.partition("=")[0] in PYTHON_PATH_ENV]
        if planted:  # the hooks git starts would import the harness from where it says
            return Denial("python-path", f"`{planted[0]}` on a git command decides where its hooks import the "
                          "harness from (a harness/ package in the work tree would answer for them)",
                          "run the git command without it")
        return check_git(args, ctx.where, ctx.notes_ref, ctx.exported + cmd.assignments, ctx.setup, ctx.judge,
                         stdin_file=_stdin_file(cmd))
    if cmd.words and unresolved(cmd.words[0]) and any(a in MACHINERY for a in args):
        return unresolved_denial(cmd.words[0], "the program to run")
    line = command_line(cmd)
    if line is not None and line.split() and unresolved(line.split()[0]):  # what it runs is unknown
        return unresolved_denial(line, f"the command line `{prog}` runs")
    if prog == "harness":
        return _check_harness(args, ctx)
    run = _python_runs_harness(args) if prog.startswith("python") else None
    if run is not None:
        return _check_harness(run, ctx)
    if prog in PROGRAMS:  # Codex's apply_patch: the files it changes are named in the patch (#27's task F-0022)
        return _check_apply_patch(args, ctx)
    if prog == "patch":  # the files it changes are named in the patch (#28's task F-0074)
        denial = check_patch_program(args, _stdin_file(cmd), ctx.where, ctx.setup)
        if denial:
            return denial
    framework = args if prog == "pre-commit" else _python_runs_pre_commit(args) if prog.startswith("python") else None
    if framework is not None:  # F-0309: an install over the hooks, not only an uninstall, can take them away
        from harness.agent.judge.pre_commit_runs import check_pre_commit  # its rules load for pre-commit alone

        denial = check_pre_commit(framework, ctx.where, ctx.setup.hooks_dirs)
        if denial:
            return denial
    denial = _check_pytest(cmd, ctx) if "test" in prog or prog.startswith(("python", "coverage")) else None
    # Any other program: judged by what it does to the files it names.
    return denial or check_files(prog, args, ctx.where, ctx.setup.hooks_dirs, ctx.setup.archive_members)


def _check_apply_patch(args: list[str], ctx: CommandSite) -> Denial | None:
    """`apply_patch PATCH`, or `apply_patch` reading its patch from stdin, wherever the line runs it (behind
    quotes split in its name, in a group, after a cd): judged by the paths the patch names, from the folder
    the command runs in; a patch the line does not spell is refused. A patch on stdin is read only where
    the host applies it itself (then its paths are judged as the tool's writes)."""
    if not args:
        return None if ctx.setup.patch_read else Denial("protected-file", UNREADABLE_REASON, UNREADABLE_INSTEAD)
    if unresolved(args[0]):
        return Denial("protected-file", UNREADABLE_REASON, UNREADABLE_INSTEAD)
    for path in patch_paths(args[0]):
        denial = check_write(path, ctx.where, ctx.setup)
        if denial:
            return denial
    for path in patch_paths(args[0], DELETE_HEADER):
        denial = check_delete(path, ctx.where, ctx.setup)
        if denial:
            return denial
    return None


TEST_TOOL_ENV = ("PYTEST_ADDOPTS=", "PYTEST_DEBUG_TEMPROOT=", "COVERAGE_FILE=")


def _check_pytest(cmd: SimpleCommand, ctx: CommandSite) -> Denial | None:
    """pytest (`pytest`, `py.test`, `python -m pytest`, `coverage run -m pytest`) with the options and folders the
    line's PYTEST_ADDOPTS and PYTEST_DEBUG_TEMPROOT give it, and coverage's data file where COVERAGE_FILE says."""
    from harness.agent.judge.bypass_files import as_program, check_pytest, check_pytest_temproot
    from harness.agent.judge.pytest_writes import addopts_words

    if cmd.program == "coverage":  # its data file, where COVERAGE_FILE says (F-0144)
        from harness.agent.judge.bypass_files import hook_or_protected

        data = [a.partition("=")[2] for a in (*ctx.exported, *cmd.assignments) if a.startswith("COVERAGE_FILE=")]
        denial = hook_or_protected(data, ctx.where, ctx.setup.hooks_dirs)
        if denial:
            return denial
    named, args = as_program(cmd.program, list(cmd.words[1:]))
    if named != "pytest":
        return None
    given = (*ctx.exported, *cmd.assignments)
    roots = [a.partition("=")[2] for a in given if a.startswith("PYTEST_DEBUG_TEMPROOT=")]
    return check_pytest_temproot(roots, ctx.where, ctx.setup.hooks_dirs) or check_pytest(
        args, addopts_words(given), ctx.setup.pytest_files or {}, ctx.where, ctx.setup.hooks_dirs)


def _stdin_file(cmd: SimpleCommand) -> str | None:
    """The file a command's standard input is read from (`< FILE`), else None (a pipe, a terminal, a here-doc)."""
    return next((t for op, t in reversed(cmd.redirects) if op == "<"), None)


def _python_runs_pre_commit(args: list[str]) -> list[str] | None:
    """The framework's arguments when a Python command line runs it: as a module (`python -m pre_commit`), or as
    a script that is its command line (its console script `.venv/bin/pre-commit`, its package's __main__.py),
    as for the harness's own (F-0315)."""
    from harness.agent.judge.pre_commit_runs import PRE_COMMIT_MODULES, PRE_COMMIT_SCRIPTS

    module = module_run(args)
    if module is not None:
        return module[1] if module[0] in PRE_COMMIT_MODULES else None
    script = script_run(args)
    if script is not None and (posixpath.basename(script[0]) == "pre-commit" or script[0].endswith(PRE_COMMIT_SCRIPTS)):
        return script[1]
    return None


def _python_runs_harness(args: list[str]) -> list[str] | None:
    """The harness's arguments when a Python command line runs the harness: as a module (options, runners
    and all), or as a script that is the harness (its installed script, its __main__.py)."""
    module = module_run(args)
    if module is not None:
        return module[1] if module[0] in HARNESS_MODULES else None
    script = script_run(args)
    if script is not None and (posixpath.basename(script[0]) == "harness"
                               or script[0].endswith("harness/__main__.py")):
        return script[1]
    code = inline_code(args)
    if code is not None and "harness" in code[0]:
        # Code that names the harness (`runpy.run_module("harness")`, `from harness.cli import …`) is
        # judged by the words it is given, as the harness's command line would read them. What code
        # does beyond its words no reading of them can know: the git hooks and CI judge that.
        return code[1]
    return None


def _check_harness(args: list[str], ctx: CommandSite) -> Denial | None:
    sub = _first_positional(args)
    if (sub is not None and unresolved(sub)) or (sub == "agent" and any(unresolved(a) for a in args)):
        return unresolved_denial(sub if unresolved(sub or "") else " ".join(args), "the harness command to run")
    if sub == "evidence":
        return _check_evidence_run(args, ctx)
    if _asks_for_help(args):
        return None  # reading how a command works changes nothing
    if sub == "approve":
        return Denial("approve", "`harness approve` is a human's signature, never the agent's",
                      "stop and ask a human to run the `harness approve …` command in their own terminal")
    if sub == "uninstall" or (sub == "agent" and "uninstall" in args):
        return Denial("uninstall", f"`harness {' '.join(args)}` removes the harness's guards",
                      "leave them installed; ask a human if they really must go")
    return None


def _asks_for_help(args: list[str]) -> bool:
    """A help word click reads as help: before any `--`, and not where an option's value goes (`--key -h`
    is a key named -h)."""
    for i, word in enumerate(args):
        if word == "--":
            return False
        if word in ("-h", "--help"):
            before = args[i - 1] if i else ""
            return not (before.startswith("-") and "=" not in before)
    return False


def _check_evidence_run(args: list[str], ctx: CommandSite) -> Denial | None:
    """`harness evidence TYPE -- CMD` starts CMD (with --shell, a command line): judged as if typed alone."""
    if "--" not in args:
        return None  # the configured command: config.yaml's, changed only with a human's approval
    words = args[args.index("--") + 1:]
    if not words:
        return None
    import shlex

    return ctx.judge(" ".join(words) if "--shell" in args[:args.index("--")] else shlex.join(words))


# Variables that decide where Python imports from: set on a git command, they reach the hooks it runs.
PYTHON_PATH_ENV = frozenset({"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE"})


def _first_positional(args: list[str]) -> str | None:
    return next((a for a in args if not a.startswith("-")), None)


def mentions_guarded(text: str) -> bool:
    """Whether a command the guard could not read touches anything the guard covers: then
    the guard refuses rather than allows (an internal error never silently allows)."""
    lowered = text.lower()
    return any(k in lowered for k in ("git", "harness", "skip=", "hookspath", "events.jsonl", "evidence",
                                      "approvals.jsonl", "allowed_signers", "pre-commit"))

