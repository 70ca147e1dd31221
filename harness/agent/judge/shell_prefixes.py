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
CHDIR = {"env": ("C", "--chdir"), "sudo": ("D", "--chdir")}


def strip_prefix(words: list[str], assigns: list[str], folders: list[str] | None = None) -> tuple[bool, list[str]]:
    """Drop one prefix (and its options and plain words) from the front of ``words``, in place.
    (whether one was dropped, command lines a prefix hands to a shell). The folders a prefix runs its
    command in are added to ``folders``."""
    head = posixpath.basename(words[0])
    spec = PREFIXES.get(head)
    if spec is None and head in RUNNERS and words[1:2] in (["run"], ["exec"]):
        spec = RUNNERS[head]
        words.pop(0)
    if spec is None or (head == "runuser" and not _leading_option(spec, words[1:], "u", "--user", 3)):
        return False, []
    words.pop(0)
    scripts: list[str] = []
    into = folders if folders is not None else []
    replacing = _replace_string(words) if head == "xargs" else None
    shell_line = head == "watch" and not _leading_option(spec, words, "x", "--exec", 4)
    _options(head, spec, words, assigns, scripts, into)
    for _ in range(spec.positionals):
        if words:
            words.pop(0)
        _options(head, spec, words, assigns, scripts, into)  # `flock FILE -c "…"`: options after the file too
    if shell_line and words:
        scripts.append(" ".join(words))  # watch joins its words into the line it hands `sh -c` (#28's task F-0098)
    if scripts:
        words.clear()  # the command is the string, not the words left
    elif head == "xargs" and words and replacing is not None:
        # `xargs -I% sh -c 'echo >> %'` puts each input where % stands: spelled as the input, which the judge
        # reads as what the line shows it (harness/agent/judge/xargs_input.py; #28's task F-0081, F-0094).
        words[:] = [w.replace(replacing, XARGS_INPUT) for w in words]
    elif head == "xargs" and words:
        words.append(XARGS_INPUT)  # xargs adds words read from its input: unknown to the guard
    return True, scripts


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
            _long(head, spec, w, words, scripts, folders)
        else:
            _short(head, spec, w, words, scripts, folders)


def _long(head: str, spec: Prefix, w: str, words: list[str], scripts: list[str], folders: list[str]) -> None:
    opt, eq, value = w.partition("=")
    opt = _unabbreviated(spec, opt)
    if opt in spec.long_values and not eq:
        value = words.pop(0) if words else ""
    if opt == LONG_COMMAND.get(head):
        _hand_over(head == "env", value, words, scripts)
    if head in CHDIR and opt == CHDIR[head][1]:
        folders.append(value)  # (#28's task F-0084: `--ch=DIR` too)


def _unabbreviated(spec: Prefix, opt: str) -> str:
    """A long option as getopt_long reads an unambiguous abbreviation of it (`--ch` for `--chdir`)."""
    if opt in spec.long_values:
        return opt
    known = [k for k in spec.long_values if k.startswith(opt)]
    return known[0] if len(known) == 1 else opt


def _short(head: str, spec: Prefix, w: str, words: list[str], scripts: list[str], folders: list[str]) -> None:
    for j, ch in enumerate(w[1:], 1):
        if ch in spec.short_values or ch in (spec.command_option, spec.split_option):
            value = w[j + 1:] or (words.pop(0) if words else "")
            if ch and ch == spec.command_option:
                scripts.append(value)
            elif ch and ch == spec.split_option:
                _hand_over(True, value, words, scripts)
            elif head in CHDIR and ch == CHDIR[head][0]:
                folders.append(value)
            return


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
