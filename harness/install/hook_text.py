"""What a user's shell hook shows by its text alone, for `harness install` (harness.install.existing_hooks):
whether its `harness hook run <stage>` line decides the hook's exit status, and whether a dispatcher gives every
file of its `<stage>.d/` the same stdin. The rules are ones a person can check by eye; anything they do not
recognise counts as not shown, and install refuses naming the line, never the other way round."""

from __future__ import annotations

import re
from dataclasses import dataclass

# What may follow the stage: plain words, quoted words, "$@" and the like; no `;`, `|`, `&`, redirection or
# substitution that could change the line's status.
_ARGS = r"""(?:[ \t]+(?:"\$[@*\d]"|\$[@*\d]|"[^"$`\\]*"|'[^']*'|[\w./=:@+-]+))*"""
# A pipeline's status is its last command's: the refs a stdin stage's hook read may be given back this way.
_FED = r"""(?:(?:printf|echo)[ \t][^|;&`\n]*\|[ \t]*)?"""
_STATUS_KEPT = r"""(?:[ \t]*\|\|[ \t]*exit(?:[ \t]+(?:"?\$\?"?|[1-9]\d*))?[ \t]*;?)"""
# `exit` with a status that may be 0, or `exec` of another command: the rest of the hook may never run.
_EXIT = re.compile(r"\bexit\b(?:[ \t]+(\S+))?")
_EXEC = re.compile(r"(?:^|[;&|({]|\b(?:then|else|do))[ \t]*exec[ \t]+(?![\d]*[<>&])\S")
_OPENS = re.compile(r"\b(?:if|case|for|while|until|select)\b|(?<![$\w])\{(?=\s|$)")
_CLOSES = re.compile(r"\b(?:fi|esac|done)\b|(?:^|[\s;])\}")
_QUOTED = re.compile(r"""'[^']*'|"(?:[^"\\]|\\.)*\"""")
_HEREDOC = re.compile(r"(?<!<)<<-?(?!<)[ \t]*(['\"]?)(\w+)\1")
_COMMENT = re.compile(r"[ \t]+#.*$")


@dataclass(frozen=True)
class HarnessLine:
    number: int            # 1-based, in the hook's text
    text: str
    problem: str | None    # why its failure need not fail the hook; None: it does


def harness_line(text: str, stage: str) -> HarnessLine | None:
    """The line of ``text`` (a hook) that runs `harness hook run <stage>` so that the harness's failure is the
    hook's (``problem`` None), else the first line naming it with why not; None when no line names it. Such a
    line is the hook's own, not indented (outside any block), not after an `exit` or `exec` that can end the hook
    first, and either its last command, `exec harness hook run …`, or followed by `|| exit $?`."""
    run = rf"""(?:[^\s;|&<>()`'"]*/)?harness[ \t]+hook[ \t]+run[ \t]+["']?{re.escape(stage)}["']?(?![\w-])"""
    forms = (re.compile(rf"exec[ \t]+{run}{_ARGS}[ \t]*;?"), re.compile(rf"{_FED}{run}{_ARGS}{_STATUS_KEPT}"))
    last = re.compile(rf"{_FED}{run}{_ARGS}[ \t]*;?")
    lines = _commands(text)
    found = []
    for i, (number, line, where) in enumerate(lines):
        command = _COMMENT.sub("", line).rstrip()
        if not re.search(rf"\b{run}", command):
            continue
        ends = i == len(lines) - 1 and last.fullmatch(command)
        problem = where or (None if ends or any(f.fullmatch(command) for f in forms) else
                            "it is not the hook's last command, nor `exec`, nor followed by `|| exit $?`")
        problem = problem or _ended_before(lines[:i])
        found.append(HarnessLine(number, line.strip(), problem))
    return next((f for f in found if f.problem is None), found[0] if found else None)


def _commands(text: str) -> list[tuple[int, str, str | None]]:
    """Each non-blank, non-comment line: its number, text, and why it is not a command of the hook's own at its
    top level (None: it is)."""
    result: list[tuple[int, str, str | None]] = []
    heredoc: str | None = None
    depth, continued = 0, False
    for number, line in enumerate(text.splitlines(), 1):
        if heredoc is not None:
            if line.strip() == heredoc:
                heredoc = None
            elif line.strip():
                result.append((number, line, "it is text in a here-document, not a command"))
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = ("it is inside a block (if, case, a loop or a function): it may not run" if depth
                 else "it is indented or continues another line: it may not run" if continued or line[0] in " \t"
                 else None)
        result.append((number, line, where))
        code = _QUOTED.sub("''", _COMMENT.sub("", line))
        depth += len(_OPENS.findall(code)) - len(_CLOSES.findall(code))
        continued = line.rstrip().endswith("\\")
        opened = _HEREDOC.search(_COMMENT.sub("", line))
        heredoc = opened.group(2) if opened else None
    return result


def _ended_before(lines: list[tuple[int, str, str | None]]) -> str | None:
    """Why the hook may end before a later line runs: an `exit` whose status may be 0, or `exec` of a command."""
    for number, line, _where in lines:
        if "here-document" in (_where or ""):
            continue
        for found in _EXIT.finditer(line):
            status, before = found.group(1), line[:found.start()].rstrip()
            if not (before.endswith("||") and status in (None, "$?", '"$?"')) and not re.fullmatch(r"[1-9]\d*;?",
                                                                                                  status or ""):
                return f"line {number} (`{line.strip()}`) can end the hook first, with success"
        if _EXEC.search(line):
            return f"line {number} (`{line.strip()}`) replaces the hook with another command first"
    return None


def shares_stdin(text: str) -> bool:
    """Whether a dispatcher gives every file it runs the same stdin: it reads stdin once into a variable before
    its loop (`data=$(cat)`) and pipes that to the loop's file (`echo "$data" | "$f"`, Gitea's way) or gives it
    as a here-string (`"$f" <<<"$data"`)."""
    buffered = re.search(r"""^[ \t]*(\w+)=("?)\$\([ \t]*cat(?:[ \t]+-)?[ \t]*\)\2[ \t]*;?[ \t]*$""", text, re.MULTILINE)
    loop = re.search(r"\bfor[ \t]+(\w+)[ \t]+in[ \t][^\n]*\.d\b", text)
    if not buffered or not loop or buffered.start() > loop.start():
        return False
    data, each = (rf'"?\$\{{?{re.escape(name)}\}}?"?' for name in (buffered.group(1), loop.group(1)))
    body = text[loop.end():]
    return bool(re.search(rf"{data}[^|\n]*\|[ \t]*{each}", body) or re.search(rf"{each}[^\n]*<<<[ \t]*{data}", body))
