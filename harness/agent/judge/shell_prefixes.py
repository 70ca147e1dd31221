"""Words that run the rest of the line as a command, and the options each of them takes.

Pure. `nice -n 5 git commit -n` runs `git commit -n`; a guard that dropped only the word
`nice` would judge `-n 5 git …` and see nothing. Each prefix lists the options that take a
value (so `timeout -s KILL 5 git …` skips `KILL` too), and how many plain words it reads
before the command (`timeout`'s duration, `flock`'s lock file). Some prefixes hand a
string to a shell instead (`flock … -c "…"`, `env -S "…"`): those strings come back to be
parsed as command lines of their own.
"""

from __future__ import annotations

import posixpath

from harness.core.value_class import dataclass


@dataclass(frozen=True)
class Prefix:
    """How a prefix command (sudo, nice, env, ...) takes its options before the command it runs."""

    short_values: str = ""                      # short options that take a value
    long_values: frozenset[str] = frozenset()   # long options that take a value (without `=`)
    positionals: int = 0                        # plain words before the command
    command_option: str = ""                    # a short option whose value is a shell command line
    split_option: str = ""                      # a short option whose value is split into words (env -S)


PREFIXES: dict[str, Prefix] = {
    "sudo": Prefix("uUgpCDhrtT", frozenset({"--user", "--group", "--prompt", "--close-from", "--chdir", "--host",
                                            "--role", "--type", "--other-user", "--command-timeout"})),
    "doas": Prefix("uC"),
    "nice": Prefix("n", frozenset({"--adjustment"})),
    "ionice": Prefix("cnp", frozenset({"--class", "--classdata", "--pid"})),
    "chrt": Prefix("", frozenset(), 1),
    "taskset": Prefix("", frozenset(), 1),
    "timeout": Prefix("sk", frozenset({"--signal", "--kill-after"}), 1),
    "xargs": Prefix("aEeIiLlnPsd", frozenset({"--arg-file", "--eof", "--replace", "--max-lines", "--max-args",
                                             "--max-procs", "--max-chars", "--delimiter", "--process-slot-var"})),
    "setsid": Prefix(),
    "stdbuf": Prefix("ioe", frozenset({"--input", "--output", "--error"})),
    "flock": Prefix("wE", frozenset({"--timeout", "--wait", "--conflict-exit-code"}), 1, command_option="c"),
    "env": Prefix("uCS", frozenset({"--unset", "--chdir", "--split-string", "--block-signal", "--default-signal",
                                    "--ignore-signal"}), split_option="S"),
    "nohup": Prefix(), "time": Prefix(), "command": Prefix(), "exec": Prefix("a"), "builtin": Prefix(),
    "unbuffer": Prefix(), "caffeinate": Prefix(), "chronic": Prefix(), "ltrace": Prefix("o"),
    "strace": Prefix("eoOpPsSuEXI"), "catchsegv": Prefix(), "fakeroot": Prefix(),
    "watch": Prefix("nq", frozenset({"--interval", "--equexit", "--shotsfile"})),
    "npx": Prefix("pc", frozenset({"--package", "--call"})),
    # `runuser -u USER [--] CMD…` runs CMD itself (F-0235); without -u it is su's form (`runuser USER -c LINE`), left
    # to the command-line rules (shell_commands.COMMAND_OPTION). `-c` is refused by runuser beside -u: judged anyway.
    "runuser": Prefix("ugGsw", frozenset({"--user", "--group", "--supp-group", "--shell", "--whitelist-environment"}),
                      command_option="c"),
    # Wrappers that run their words as a command, with the options of each that take a value (their --help and man
    # pages; F-0253): `setpriv git commit -n` needs no privilege at all. chroot's and `unshare -R`'s new root is
    # where the command runs (ROOT_OPTION); systemd-run's environment, folder and Exec properties are followed.
    "setpriv": Prefix("", frozenset({"--ambient-caps", "--inh-caps", "--bounding-set", "--ruid", "--euid", "--rgid",
                                     "--egid", "--reuid", "--regid", "--groups", "--securebits", "--pdeathsig",
                                     "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule",
                                     "--seccomp-filter", "--ptracer"})),
    "unshare": Prefix("RwSG", frozenset({"--root", "--wd", "--setuid", "--setgid", "--map-user", "--map-group",
                                         "--map-users", "--map-groups", "--propagation", "--setgroups", "--monotonic",
                                         "--boottime", "--load-interp"})),
    "chroot": Prefix("", frozenset({"--groups", "--userspec"}), 1),
    "pkexec": Prefix("u", frozenset({"--user"})),
    "systemd-run": Prefix("HMupEC", frozenset({
        "--host", "--machine", "--unit", "--property", "--description", "--slice", "--service-type", "--uid", "--gid",
        "--nice", "--working-directory", "--setenv", "--path-property", "--socket-property", "--timer-property",
        "--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar",
        "--capsule", "--json", "--expand-environment", "--background"})),
    # util-linux's other wrappers that run their words as a command, and ssh-agent (F-0276). prlimit's resource
    # options take their value attached (`--nofile=1024`, `-n1024`), setarch reads its architecture first (its other
    # names take none), nsenter's namespace options and `--wd`/`--root` their file or folder attached.
    "prlimit": Prefix("po", frozenset({"--pid", "--output"})),
    "setarch": Prefix("", frozenset(), 1),
    "linux32": Prefix(), "linux64": Prefix(), "i386": Prefix(), "x86_64": Prefix(),
    "choom": Prefix("np", frozenset({"--adjust", "--pid"})),
    "nsenter": Prefix("tSG", frozenset({"--target", "--setuid", "--setgid"})),
    "ssh-agent": Prefix("aEtPO"),
}
# Project runners: `uv run git commit -n` runs `git commit -n` (the word `run` follows the runner).
RUNNERS: dict[str, Prefix] = {
    "uv": Prefix("p", frozenset({"--with", "--with-requirements", "--with-editable", "--python", "--package",
                                 "--extra", "--group", "--env-file", "--directory", "--project", "--index"})),
    "poetry": Prefix("CP", frozenset({"--directory", "--project"})),
    "pipenv": Prefix(), "pdm": Prefix("p", frozenset({"--project"})), "hatch": Prefix(), "rye": Prefix(),
    "pnpm": Prefix(), "yarn": Prefix(),
}
# The words xargs appends from its input, as the guard sees them: an expansion it cannot work out.
XARGS_INPUT = "${xargs_input}"
LONG_COMMAND = {"flock": "--command", "env": "--split-string"}


def is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and bool(name) and name.replace("_", "a").isalnum() and not name[0].isdigit()


# Options by which a prefix runs its command in another folder (`env -C DIR`, `sudo -D DIR`).
CHDIR = {"env": ("C", "--chdir"), "sudo": ("D", "--chdir"), "unshare": ("w", "--wd"),
         "systemd-run": ("", "--working-directory"), "nsenter": ("w", "--wd")}
# Short options whose value is optional and only ever attached (`nsenter -m/proc/1/ns/mnt`, `-wDIR`): the rest of the
# word is the value, the next word is not (read 80's F-0281: `-m/proc/self/ns/mnt` was read as a cluster holding -t).
ATTACHED = {"nsenter": "muipUCTrw"}
# The folder or root such an option names when it is given no value: the target process's own, which no word says.
UNKNOWN_FOLDER = "${the target process's folder}"
# Options that give the command another root folder (`unshare -R DIR`; chroot's first word): it runs in its `/`.
ROOT_OPTION = {"unshare": ("R", "--root"), "nsenter": ("r", "--root")}
# The folder a command runs in under a root other than `/`: its paths, absolute ones too, name other files than
# the line's, which the guard does not follow; like `env -C "$DIR"`, what runs there is unresolved (F-0253).
NEW_ROOT = "${new_root}"
# systemd-run's options whose value sets a variable (`-E NAME=VALUE`) or a unit property (`-p NAME=VALUE`).
SETENV = {"systemd-run": ("E", "--setenv")}
PROPERTY = {"systemd-run": ("p", "--property", "--path-property", "--socket-property", "--timer-property")}
# Unit properties that change what the command sees in ways the guard does not follow: judged as a new root.
OPAQUE_PROPERTIES = frozenset({"RootDirectory", "RootImage", "EnvironmentFile", "RootEphemeral", "MountImages",
                               "BindPaths", "TemporaryFileSystem"})


def strip_prefix(words: list[str], assigns: list[str], folders: list[str] | None = None) -> tuple[bool, list[str]]:
    """Drop one prefix (and its options and plain words) from the front of ``words``, in place.
    (whether one was dropped, command lines a prefix hands to a shell). The folders a prefix runs its
    command in are added to ``folders``."""
    head = posixpath.basename(words[0])
    if head in ("su", "runuser") and not (head == "runuser" and _leading_option(PREFIXES[head], words[1:], "u",
                                                                                "--user", 3)):
        run = _run_by_su(words[1:])  # (runuser -u is a prefix like sudo's)
        if run is None:
            return False, []
        words[:] = run
        return True, []
    spec = PREFIXES.get(head)
    if spec is None and head in RUNNERS and words[1:2] in (["run"], ["exec"]):
        spec = RUNNERS[head]
        words.pop(0)
    if spec is None:
        return False, []
    words.pop(0)
    scripts: list[str] = []
    into = folders if folders is not None else []
    replacing = _replace_string(words) if head == "xargs" else None
    shell_line = head == "watch" and not _leading_option(spec, words, "x", "--exec", 4)
    _options(head, spec, words, assigns, scripts, into)
    for _ in range(spec.positionals):
        if words:
            positional = words.pop(0)
            into += [_root_folder(positional)] if head == "chroot" else []
        _options(head, spec, words, assigns, scripts, into)  # `flock FILE -c "…"`: options after the file too
    if shell_line and words:
        scripts.append(" ".join(words))  # watch joins its words into the line it hands `sh -c` (#28's task F-0098)
    if scripts and head != "systemd-run":  # (systemd-run's Exec properties run beside its command)
        words.clear()  # the command is the string, not the words left
    elif head == "xargs" and words and replacing is not None:
        # `xargs -I% sh -c 'echo >> %'` puts each input where % stands: spelled as the input, which the judge
        # reads as what the line shows it (harness/agent/judge/xargs_input.py; #28's task F-0081, F-0094).
        words[:] = [w.replace(replacing, XARGS_INPUT) for w in words]
    elif head == "xargs" and words:
        words.append(XARGS_INPUT)  # xargs adds words read from its input: unknown to the guard
    return True, scripts


def _root_folder(root: str) -> str:
    """Where a command run under the new root ``root`` runs, as the line's folders say it: `/` (chroot and `unshare -R`
    change into the new root's `/`), or, for another root, NEW_ROOT."""
    return "/" if posixpath.normpath(root) in ("/", "//") else NEW_ROOT


# su's and runuser's options that take a value (runuser's -u aside), and the letter each long one stands for.
SU_OPTIONS = Prefix("cgGsw", frozenset({"--command", "--session-command", "--group", "--supp-group", "--shell",
                                        "--whitelist-environment"}))
SU_LONG = {"--command": "c", "--session-command": "c", "--shell": "s"}


def _run_by_su(args: list[str]) -> list[str] | None:
    """`su [OPTIONS] [-] USER ARGS…` hands ARGS to its shell: `-s PROGRAM` (any program: `-s /usr/bin/git -- commit
    -n` runs git) or the user's (judged as `sh`), with `-c LINE` before them (F-0254). The command that runs, or
    None when no word follows the user and there is no `-s` with `-c` (`su - me`, `su -c LINE me`: the command-line
    rules read `-c`)."""
    values, positional = _su_options(args)
    if positional[:1] == ["-"]:
        positional = positional[1:]  # `su - USER`: a login shell
    after_user, shell = positional[1:], values.get("s")
    if not after_user and (shell is None or "c" not in values):
        return None
    line = ["-c", values["c"]] if "c" in values else []
    return [shell or "sh", *line, *after_user]


def _su_options(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """su's options with a value, by letter, and its other words, as getopt_long reads them: options anywhere before
    `--` (it permutes), clustered (`-ls/usr/bin/git`), long ones abbreviated (`--sh=…`)."""
    values: dict[str, str] = {}
    positional: list[str] = []
    rest = list(args)
    while rest:
        w = rest.pop(0)
        if w == "--":
            return values, positional + rest
        if w == "-" or not w.startswith("-"):
            positional.append(w)
        elif w.startswith("--"):
            opt, eq, value = w.partition("=")
            opt = _unabbreviated(SU_OPTIONS, opt)
            if opt in SU_OPTIONS.long_values:
                values[SU_LONG.get(opt, "")] = value if eq else (rest.pop(0) if rest else "")
        else:
            at = next((j for j, ch in enumerate(w[1:], 1) if ch in SU_OPTIONS.short_values), None)
            if at is not None:
                values[w[at]] = w[at + 1:] or (rest.pop(0) if rest else "")
    return values, positional


def _leading_option(spec: Prefix, words: list[str], short: str, long: str, unique: int) -> bool:
    """Whether a prefix's leading options hold ``short`` or ``long`` (abbreviated to no fewer than ``unique``
    characters, where getopt_long reads it as that option alone), past the values of its options. watch's `-x`/`--exec`
    runs its words as a command, not as a shell line (`-n 1 -x`, `--interval 1 -x`, `--ex`; #28's task F-0109);
    runuser's `-u`/`--user` runs its words (F-0235)."""
    i = 0
    while i < len(words) and words[i].startswith("-") and words[i] not in ("-", "--"):
        w = words[i]
        if w.startswith("--"):
            name = w.partition("=")[0]
            if len(name) >= unique and long.startswith(name):
                return True
            i += 1 + (_unabbreviated(spec, name) in spec.long_values and "=" not in w)
            continue
        for j, ch in enumerate(w[1:], 1):
            if ch == short:
                return True
            if ch in spec.short_values:
                i += not w[j + 1:]  # the value is the next word
                break
        i += 1
    return False


def _replace_string(words: list[str]) -> str | None:
    """xargs's replace string among its leading options (`-I R`, `-IR`, `--replace[=R]`, `-i[R]`), or None."""
    for i, w in enumerate(words):
        if not w.startswith("-") or w == "--":
            return None
        opt, eq, value = w.partition("=")
        if opt == "--replace":
            return value if eq else "{}"
        if w.startswith("-I"):
            return w[2:] or (words[i + 1] if i + 1 < len(words) else None)
        if w.startswith("-i"):
            return w[2:] or "{}"
    return None


def _options(head: str, spec: Prefix, words: list[str], assigns: list[str], scripts: list[str],
             folders: list[str]) -> None:
    """Read ``head``'s options off the front of ``words``: values skipped, assignments kept, command lines
    handed over, and the folders it runs its command in (`env -C DIR`, `--chdir=DIR`, `sudo -D DIR`) noted."""
    while words and ((words[0].startswith("-") and words[0] != "-") or (head == "env" and is_assignment(words[0]))):
        w = words.pop(0)
        if w == "--":
            return
        if is_assignment(w):
            assigns.append(w)
        elif w.startswith("--"):
            _long(head, spec, w, words, (assigns, scripts, folders))
        else:
            _short(head, spec, w, words, (assigns, scripts, folders))


# What a prefix's options add to: the variables the command gets, the command lines handed over, its folders.
Found = tuple[list[str], list[str], list[str]]


def _long(head: str, spec: Prefix, w: str, words: list[str], found: Found) -> None:
    scripts, folders = found[1], found[2]
    opt, eq, value = w.partition("=")
    opt = _unabbreviated(spec, opt)
    if opt in spec.long_values and not eq:
        value = words.pop(0) if words else ""
    if opt == LONG_COMMAND.get(head):
        _hand_over(head == "env", value, words, scripts)
    if head in CHDIR and opt == CHDIR[head][1]:
        folders.append(value or (UNKNOWN_FOLDER if head in ATTACHED else value))  # (#28's task F-0084: `--ch=DIR`)
    _wrapper_value(head, opt, value, found)


def _unabbreviated(spec: Prefix, opt: str) -> str:
    """A long option as getopt_long reads an unambiguous abbreviation of it (`--ch` for `--chdir`)."""
    if opt in spec.long_values:
        return opt
    known = [k for k in spec.long_values if k.startswith(opt)]
    return known[0] if len(known) == 1 else opt


def _short(head: str, spec: Prefix, w: str, words: list[str], found: Found) -> None:
    scripts, folders = found[1], found[2]
    for j, ch in enumerate(w[1:], 1):
        if ch in ATTACHED.get(head, ""):  # its value, if any, is the rest of the word (F-0281)
            value = w[j + 1:] or UNKNOWN_FOLDER
            if head in CHDIR and ch == CHDIR[head][0]:
                folders.append(value)
            _wrapper_value(head, ch, value, found)
            return
        if ch in spec.short_values or ch in (spec.command_option, spec.split_option):
            value = w[j + 1:] or (words.pop(0) if words else "")
            if ch and ch == spec.command_option:
                scripts.append(value)
            elif ch and ch == spec.split_option:
                _hand_over(True, value, words, scripts)
            elif head in CHDIR and ch == CHDIR[head][0]:
                folders.append(value)
            _wrapper_value(head, ch, value, found)
            return


def _wrapper_value(head: str, option: str, value: str, found: Found) -> None:
    """What a wrapper's option (its letter, or its long name unabbreviated) does to the command it runs (F-0253): a new
    root (`unshare -R DIR`), a variable (`systemd-run -E NAME=VALUE`, as `NAME=VALUE CMD` sets it), or a unit
    property (:func:`_unit_property`)."""
    if option in ROOT_OPTION.get(head, ()):
        found[2].append(_root_folder(value))
    elif option in SETENV.get(head, ()) and is_assignment(value):
        found[0].append(value)
    elif option in PROPERTY.get(head, ()):
        _unit_property(value, found)


def _unit_property(value: str, found: Found) -> None:
    """A unit property systemd-run sets (`-p NAME=VALUE`): an Exec line (ExecStartPre=, ExecStopPost=, …) runs as a
    command line of its own (its `-@:+!` flags dropped); Environment= sets variables; WorkingDirectory= is the
    folder; a property in OPAQUE_PROPERTIES is not followed: the command is judged as under a new root."""
    assigns, scripts, folders = found
    name, _, setting = value.partition("=")
    if name.startswith("Exec") and not name.endswith(("Paths", "SearchPath")):
        scripts.append(setting.lstrip("-@:+!|"))
    elif name == "Environment":
        import shlex

        try:
            assigns += [a for a in shlex.split(setting) if is_assignment(a)]
        except ValueError:
            folders.append(NEW_ROOT)  # unreadable: not followed
    elif name == "WorkingDirectory":
        folders.append(setting.lstrip("-"))
    elif name in OPAQUE_PROPERTIES:
        folders.append(NEW_ROOT)


def _hand_over(split: bool, value: str, words: list[str], scripts: list[str]) -> None:
    """`env -S "git commit -n"` splits its string into the command's words; `flock -c` runs it in a shell."""
    if not split:
        scripts.append(value)
        return
    import shlex  # `env -S` alone needs it

    try:
        words[:0] = shlex.split(value)
    except ValueError:
        scripts.append(value)  # an unbalanced quote: judged as a command line, which refuses to read it
