"""What of a PowerShell line the bash judge cannot read (F-0372).

Pure. Claude Code's opt-in `PowerShell` tool hands the guard a PowerShell line, which the guard judges as bash
reads it: git's words, the redirects (`>`, `>>`), `rm`, `cp` and `mv` (PowerShell's aliases) read alike in both,
and PowerShell's escape, the backtick, opens what bash calls a substitution the guard cannot work out. PowerShell's
own commands are another language: a cmdlet (`Remove-Item`, `Set-Content`, `Out-File`), an alias of one that runs
or writes (`ri`, `sc`, `iex`), an environment variable set as `$env:NAME = …`, a .NET call (`[IO.File]::…`). A
line holding one of them and naming what the guard protects is refused: allowed, it would be allowed unread.
"""

from __future__ import annotations

from harness.core import lazy_re as re

# PowerShell's approved verbs (`Get-Verb`): a word VERB-NOUN is a cmdlet or a function named as one.
VERBS = ("Add|Approve|Assert|Backup|Block|Build|Checkpoint|Clear|Close|Compare|Complete|Compress|Confirm|Connect|"
         "Convert|ConvertFrom|ConvertTo|Copy|Debug|Deny|Deploy|Disable|Disconnect|Dismount|Edit|Enable|Enter|Exit|"
         "Expand|Export|Find|ForEach|Format|Get|Grant|Group|Hide|Import|Initialize|Install|Invoke|Join|Limit|Lock|"
         "Measure|Merge|Mount|Move|New|Open|Optimize|Out|Ping|Pop|Protect|Publish|Push|Read|Receive|Redo|Register|"
         "Remove|Rename|Repair|Request|Reset|Resize|Resolve|Restart|Restore|Resume|Revoke|Save|Search|Select|Send|"
         "Set|Show|Skip|Split|Start|Step|Stop|Submit|Suspend|Switch|Sync|Tee|Test|Trace|Unblock|Undo|Uninstall|"
         "Unlock|Unprotect|Unpublish|Unregister|Update|Use|Wait|Watch|Where|Write")
# Aliases of cmdlets that write, delete, move or run (PowerShell's own `rm`, `cp`, `mv`, `cat` bash reads alike).
ALIASES = "iex|icm|ri|rd|del|erase|rni|ren|mi|move|cpi|copy|ni|sc|ac|clc|cli|saps|start|sp|si|ii|spps"
OWN = (rf"(?i)\$env:|\]::|(?<![\w$-])(?:{VERBS})-[a-z]\w*|(?<![\w$.-])(?:{ALIASES})(?![\w.-])")
# What the guard protects, as its failure policy names it (bypass.mentions_guarded), and `SKIP` however it is set.
GUARDED = ("git", "harness", "skip", "hookspath", "events.jsonl", "evidence", "approvals.jsonl", "allowed_signers",
           "pre-commit")


def unread(line: str) -> str | None:
    """The first word of PowerShell's own on a line that names what the guard protects, else None."""
    lowered = line.lower()
    if not any(word in lowered for word in GUARDED):
        return None
    found = re.search(OWN, line)
    return found[0] if found else None


def refusal(word: str) -> str:
    return (f"harness: `{word}` is PowerShell's own, which the guard does not read (it reads a PowerShell line as "
            "bash does), on a line that touches what the harness protects (git, .harness/, its hooks). Instead: "
            "write it as plain commands (`git …`, `rm`, `cp`, `mv`, a `>` redirect), or run it from your own terminal")
