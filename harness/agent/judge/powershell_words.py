"""What of a PowerShell line the bash judge cannot read (F-0372, F-0382, F-0384).

Pure. Claude Code's opt-in `PowerShell` tool hands the guard a PowerShell line, which the guard judges as bash
reads it: git's words, the redirects (`>`, `>>`), `rm`, `cp` and `mv` (PowerShell's aliases) read alike in both.
The rest is another language, read here before the bash judge sees the line:

- what makes a line's words at run time, which neither reading can follow: splatting (`git @x`), the call and dot
  operators (`& git`, `. git`), an expression or subexpression (`(…)`, `$(…)`), a join (`'a'+'b'`), the format
  and string operators (`-f`, `-join`), PowerShell's escape (the backtick), `--%`, a type (`[char]`, `[IO.File]`),
  a variable (`$x`, `$env:X`), a pipeline feeding a command its arguments (`gci .harness | rm`), another interpreter
  (`cmd`, `pwsh`, `bash`, `wsl`, `Start-Process`, `iex`). A line holding one of them and a command that writes,
  deletes, moves, runs or sets (a cmdlet of a verb that does not only read, an alias of one, git, a .NET method) is
  refused, whatever it names: allowed, it would be allowed unread (F-0382). `pwsh -EncodedCommand` is refused.
- PowerShell's own commands that write (`Remove-Item`, `Set-Content`, `Out-File`, `ri`, `$env:NAME = …`): refused on
  a line that names what the guard protects (F-0372). A verb that only reads (`Get-`, `Select-`, `Where-`,
  `Format-`, `Out-String`, `Write-Host`) is not a reason to refuse (F-0384): the bash judge still reads the line.
"""

from __future__ import annotations

from harness.core import lazy_re as re

# Verbs of cmdlets that only read or print: any other `VERB-NOUN` may write, delete, move, run or set.
READ_ONLY = ("Get|Select|Where|Format|Measure|Sort|Group|Compare|Test|Resolve|Find|Search|ConvertTo|ConvertFrom|Join|"
             "Split|Wait|Out-(?:String|Host|Null|Default)|Write-(?:Host|Output|Verbose|Debug|Information|Warning|"
             "Error|Progress)")
CMDLET = rf"(?<![\w$.-])(?!(?:{READ_ONLY})(?![a-z]))[a-z]+-[a-z]\w*"
# Aliases of cmdlets that write, delete, move, run or set, where bash would read them as another program or none.
OWN_ALIASES = ("iex|icm|ri|rd|rmdir|del|erase|rni|ren|mi|move|cpi|copy|ni|md|sc|ac|clc|cli|saps|start|sp|si|ii|spps|"
               "sal|nal|sv|set|tee|epcsv|ipmo|foreach|%")
# ... and the programs both read alike, which run or write, and the interpreters whose line nothing here reads.
ALIASES = rf"{OWN_ALIASES}|rm|mv|cp|mkdir|git|cmd|wsl"
NAME = r"(?<![\w$.:-])(?:{})(?:\.exe)?(?![\w.:-])"
# What writes, deletes, moves, runs or sets: a cmdlet, an alias, a .NET method called (`]::M(`, `.Delete(`).
ACTS = rf"{CMDLET}|{NAME.format(ALIASES)}|\]::|\.\w+\s*\("
ACTING = rf"(?i){ACTS}"
OWN = rf"(?i){CMDLET}|{NAME.format(OWN_ALIASES)}|\]::|\$env:\w+\s*=(?!=)"
# What makes a line's words when it runs (see above), in the order the refusal names the first.
DYNAMIC = (
    ("another interpreter", rf"(?i){NAME.format('cmd|pwsh|powershell|bash|sh|zsh|wsl|start-process|saps|start|iex|invoke-expression')}"),
    ("splatting", r"(?<![\w@])@\w|@['\"]"),
    ("the call operator `&`", r"(?<![&])&(?!&)"),
    ("dot-invocation", r"(?:^|[;|{(&\n])\s*\.(?=[\s{'\"$(&])"),
    ("an expression in parentheses", r"\("),
    ("a string join", r"['\")\w$]\s*\+\s*['\"($]"),
    ("a string operator", r"(?i)(?<![\w-])-(?:f|join|replace|split|creplace|ireplace)(?![\w-])"),
    ("PowerShell's escape, the backtick", r"`"),
    ("`--%`", r"--%"),
    ("a type or .NET call", r"(?i)\[\s*[a-z][\w.]*\s*\]"),
    ("a variable", r"\$(?:\{|(?!(?:true|false|null)\b)[\w:?^])"),
    ("a block comment", r"<#"),
    ("a pipeline feeding a command its arguments", rf"(?i)\|\s*(?:{ACTS})"),
)
ENCODED = r"(?i)(?:^|[\s;|&(])(?:pwsh|powershell)(?:\.exe)?\s(?:.*\s)?[-/]e(?:c|n[a-z]*)?(?=[\s:]|$)"
# What the guard protects, as its failure policy names it (bypass.mentions_guarded), and `SKIP` however it is set.
GUARDED = ("git", "harness", "skip", "hookspath", "events.jsonl", "evidence", "approvals.jsonl", "allowed_signers",
           "pre-commit")


def unread(line: str) -> str | None:
    """Why the guard cannot vouch for the PowerShell ``line`` (what of it it cannot read, and what it does), else
    None: the line is then the bash judge's."""
    if re.search(ENCODED, line):
        return "`-EncodedCommand` hands PowerShell a line the guard cannot read"
    acting = re.search(ACTING, line) or re.search(ACTING, re.sub(r"[\^'\"`]", "", line))  # cmd's `^`, `r''m`
    if acting:
        for what, pattern in DYNAMIC:
            found = re.search(pattern, line)
            if found and found[0].strip() == acting[0].strip():  # `cmd`, `wsl`, `iex`: itself runs a line unread
                return f"{what} (`{found[0].strip()}`) runs a line the guard cannot read"
            if found:
                return (f"{what} (`{found[0].strip()}`) makes words the guard cannot read, on a line that writes, "
                        f"deletes, moves, runs or sets (`{acting[0].strip()}`)")
    if any(word in line.lower() for word in GUARDED):
        own = re.search(OWN, line)
        if own:
            return (f"`{own[0]}` is PowerShell's own, which the guard does not read (it reads a PowerShell line as "
                    "bash does), on a line that touches what the harness protects (git, .harness/, its hooks)")
    return None


def refusal(why: str) -> str:
    return (f"harness: {why}. Instead: write it as plain commands with literal words (`git …`, `rm`, `cp`, `mv`, a "
            "`>` redirect; reading cmdlets such as Get-Content are fine), or run it from your own terminal")
