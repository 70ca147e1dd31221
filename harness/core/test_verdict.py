"""Whether a test run reached a verdict on its tests: pytest's exit codes beyond pass and fail, and its summary.

A regression test is attached because it fails, and a reproducer confirms a finding because it fails. pytest
also exits non-zero when no test ran at all: 4 for an option or path it does not know, 5 when nothing was
collected, 2 when collection broke or the run was interrupted, 3 on its own error. Taken for a failure, such
a run records a regression test that never ran (#28's task F-0052). pytest is found behind the wrappers people
start it with (`timeout 60`, `env`, `nice`, `python -Im`; #27's task F-0004). A run that exits 1 is read by the
last summary pytest printed: a failed test decides; an error decides too when the code a fixture calls raised
it (F-0026), but not when the test could not run at all (a fixture pytest does not know, F-0005; a scope
mismatch, F-0028; a module that did not collect); no summary at all decides nothing (F-0011). Only a command
that is pytest is read so: a script's output may hold summaries of the runs it judged itself. Pure; other
runners' codes are not known here, so their non-zero exits stay failures.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

PYTEST_NO_VERDICT = {
    2: "the run was interrupted or a test file could not be collected (an import or syntax error)",
    3: "pytest failed internally",
    4: "pytest was called wrongly (an option, a path or a node id it does not know)",
    5: "no test was collected (a file without tests, or every test deselected)",
}
PYTHONS = ("python", "python3")


def runs_pytest(argv: Sequence[str]) -> bool:
    """Whether ``argv`` starts pytest itself: `pytest …`, `py.test …` or `python -m pytest …` (any path, with
    Python's options, combined ones too: `-Im pytest`), directly or behind a wrapper that runs the rest of its
    arguments as a command (`timeout 60 …`, `env A=1 …`, `nice -n 5 …`)."""
    rest = unwrapped(list(argv))
    if not rest:
        return False
    program = posixpath.basename(rest[0])
    if program in ("pytest", "py.test"):
        return True
    is_python = program in PYTHONS or (program.startswith("python3.") and program[8:].isdigit())
    return is_python and _python_module(rest[1:]) in ("pytest", "py.test")


# Programs that run their remaining arguments as a command, with the options of theirs that take a value.
WRAPPERS = {"env": {"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}, "timeout": {"-s", "--signal", "-k", "--kill-after"},
            "nice": {"-n", "--adjustment"}, "nohup": set(), "time": {"-f", "--format", "-o", "--output"},
            "command": set(), "exec": set(), "stdbuf": {"-i", "-o", "-e"}, "ionice": {"-c", "-n", "-p"},
            # a display for GUI tests, a CPU set, a scheduling policy, a session, a pseudo-terminal (read 136's F-0486)
            "xvfb-run": {"-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file",
                         "-p", "--xauth-protocol", "-w", "--wait"},
            "taskset": set(), "chrt": set(), "setsid": set(), "unbuffer": set()}
TAKES_A_VALUE_FIRST = {"timeout", "taskset", "chrt"}  # their first operand is a duration, a mask, a priority
# Project runners: `uv run pytest` runs pytest (the word `run` follows the runner), with these options' values.
RUNNERS = {"uv": {"--with", "--with-requirements", "--with-editable", "--python", "-p", "--package", "--directory",
                  "--project", "--env-file", "--extra", "--group"},
           "poetry": {"-C", "--directory", "-P", "--project"}, "pipenv": set(), "pdm": {"-p", "--project"},
           "hatch": set(), "rye": set()}


def unwrapped(argv: list[str]) -> list[str]:
    """``argv`` without the wrappers (and project runners' `run`) in front of the command they run."""
    while argv and (posixpath.basename(argv[0]) in WRAPPERS
                    or (posixpath.basename(argv[0]) in RUNNERS and argv[1:2] == ["run"])):
        name = posixpath.basename(argv[0])
        valued = WRAPPERS[name] if name in WRAPPERS else RUNNERS[name]
        rest = argv[1:] if name in WRAPPERS else argv[2:]
        while rest and (rest[0].startswith("-") or (name == "env" and "=" in rest[0])):
            option = rest.pop(0)
            if option == "--":
                break
            split = _split_string(name, option, rest)
            if split is not None:  # `env -S "pytest -q"`: the command is in the value (read 138's F-0489)
                rest = split
                break
            if option in valued and rest:
                rest.pop(0)
        if name in TAKES_A_VALUE_FIRST and rest:
            rest.pop(0)
        argv = rest
    return argv


def _split_string(name: str, option: str, rest: list[str]) -> list[str] | None:
    """The words `env -S VALUE` (`-SVALUE`, `--split-string=VALUE`) runs, then the words after it; None for another
    option. The value is split as env splits it (its quoting and escapes as the shell's; `${VAR}` left as written)."""
    if name != "env":
        return None
    if option in ("-S", "--split-string"):
        value = rest.pop(0) if rest else ""
    elif option.startswith("--split-string="):
        value = option.split("=", 1)[1]
    elif option.startswith("-S") or (option.startswith("-") and not option.startswith("--") and "S" in option[1:]):
        value = option[option.index("S") + 1:] or (rest.pop(0) if rest else "")
    else:
        return None
    import shlex

    # env's own escapes outside quotes: `\\_` separates words, `\\c` ends the string (read 140's F-0498).
    value = value.split("\\c", 1)[0].replace("\\_", " ")
    try:
        return [*shlex.split(value), *rest]
    except ValueError:
        return [*value.split(), *rest]


def _python_module(options: list[str]) -> str | None:
    """The module `python OPTIONS…` runs with -m (`-m pytest`, `-Im pytest`, `-mpytest`), or None."""
    while options and options[0].startswith("-") and options[0] != "-":
        option = options.pop(0)
        if option.startswith("--") or option in ("-c",):
            return None
        flags = option[1:]
        if flags[:1] in ("X", "W"):
            if len(flags) == 1 and options:
                options.pop(0)  # the value of -X dev, -W error
            continue
        if "c" in flags.split("m")[0]:
            return None  # -c: a program string, not a module
        if "m" in flags:
            module = flags[flags.index("m") + 1:]
            return module or (options[0] if options else None)
    return None


# pytest's last line: "3 failed, 1 passed in 0.12s", "1 error in 0.05s", "no tests ran in 0.01s" (between
# "=" rules without -q; "(0:00:01)" after the seconds on a long run).
SUMMARY = re.compile(r"^=*\s*((?:\d+ [a-z]+(?:, )?)+|no tests ran)\s+in [0-9.]+s(?: \([0-9:]+\))?\s*=*\s*$", re.M)


# What pytest prints when a test could not run at all: a fixture it does not know (F-0005), a fixture asking for
# one of a narrower scope (F-0028), a module that did not collect. Any other error of a test's setup is raised by
# the code its fixture calls: a verdict (F-0026).
NOT_RUN = r"fixture '[^'\n]*' not found|ScopeMismatch|ERROR collecting |error(?:s)? during collection|Interrupted: "
COLOUR = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")  # a terminal's escape codes: colour, bold


def no_verdict(argv: Sequence[str], exit_code: int | None, output: str | None = None) -> str | None:
    """Why a failing run of ``argv`` that exited ``exit_code`` (printing ``output``, its tail) decided
    nothing about its tests, or None."""
    if not exit_code or not runs_pytest(argv):
        return None  # a script's output may hold summaries of runs it judged itself: read pytest's own only
    if exit_code in PYTEST_NO_VERDICT:
        return PYTEST_NO_VERDICT[exit_code]
    if exit_code != 1 or output is None:
        return None  # not pytest's own code (a wrapper's timeout, a signal), or no output to read
    output = COLOUR.sub("", output)  # `--color=yes`, PY_COLORS=1 in CI (#27's task F-0012)
    summary = SUMMARY.findall(output)
    if summary:
        raised = summary[-1] != "no tests ran" and not re.search(NOT_RUN, output)  # by the code a fixture calls
        if raised or re.search(r"\b\d+ failed\b", summary[-1]):
            return None
        return (f"pytest's summary says `{summary[-1]}`: no test failed (a fixture that does not exist, or a "
                "module that does not collect, is no failure of the test)")
    # -qq prints the short summary without the stats line; -p no:terminal prints nothing (F-0011).
    if re.search(r"^FAILED \S", output, re.M):
        return None
    return ("pytest printed no summary that names a failed test (its terminal reporter off, `-p no:terminal`, or "
            "quietened past its summary), so a failed test cannot be told from an error")
