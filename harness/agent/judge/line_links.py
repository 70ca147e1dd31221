"""A symbolic link made on a line that runs more: refused.

Pure. The guard reads a whole line before any of it runs, and follows a path through a link by asking the disk
(harness/agent/real_names.py); a link the line itself makes does not exist yet. Then `s/..` is read as `s`'s
folder while the kernel, `cd -P` and `git -C` go to the folder above `s`'s target, and `s/x` is read as a file
of `s`'s folder while it is one of the target's (read 42's F-0041: `ln -s "$PWD/.harness/local" .harness/local/d/s
&& echo x >> .harness/local/d/s/../tasks/T/events.jsonl` writes the ledger). Working out what each later word
would reach means simulating the line's file system; refusing the line is the simplest rule that closes it, and
costs one more tool call: a link made by a line of its own is on disk when the next line is judged.
"""

from __future__ import annotations

from harness.agent.judge.denials import Denial
from harness.agent.judge.shell_commands import SimpleCommand

# Programs that make a symbolic link with an option, and their short options that take a value (getopt gives a
# value the rest of its word: `-S.s` is a suffix, not `-s`).
SYMLINK_OPTIONS = {"ln": "St", "cp": "St"}


def link_made_with_more(commands: list[SimpleCommand]) -> Denial | None:
    """The denial of a line of more than one command where one makes a symbolic link, else None."""
    if len(commands) < 2:
        return None
    maker = next((c for c in commands if makes_symlink(c)), None)
    if maker is None:
        return None
    return Denial("link", f"`{' '.join(maker.words)}` makes a symbolic link on a line that runs more: the guard "
                  "reads the line before the link exists, so a path through it (`link/..` is the folder above its "
                  "target, not the link's) is judged by its text, not where it leads",
                  "make the link with a command of its own (`ln -s TARGET NAME`), then run the rest: a later "
                  "line's paths through it are followed")


def makes_symlink(cmd: SimpleCommand) -> bool:
    """Whether ``cmd`` is `ln` or `cp` with `-s` (alone or in a cluster, `-sf`) or `--symbolic`/`--symbolic-link`
    (or a prefix of it getopt takes: `--sym`)."""
    valued = SYMLINK_OPTIONS.get(cmd.program)
    if valued is None:
        return False
    for word in cmd.words[1:]:
        if word == "--":
            return False
        if word.startswith("--sy"):
            return True
        if word[:1] == "-" and word[1:2] != "-":
            letters = word[1:]
            cut = next((j for j, letter in enumerate(letters) if letter in valued), len(letters))
            if "s" in letters[:cut]:
                return True
    return False
