"""What a refusal of the agent hooks says: the rule, why, and the legitimate command instead.

Pure: shared by the shell rules (:mod:`harness.agent.judge.bypass`) and the git rules
(:mod:`harness.agent.judge.bypass_git`).
"""

from __future__ import annotations

from harness.agent.judge import guarded_paths
from harness.core.value_class import dataclass

HOOKS_PATH = "core.hookspath"


@dataclass(frozen=True)
class Denial:
    """A refusal: the rule that refused, why, and what to do instead (a docstring spares inspect, as Where's)."""

    rule: str
    reason: str
    instead: str

    def message(self) -> str:
        return f"harness: {self.reason}. Instead: {self.instead}"


def protected_denial(path: str, found: tuple[str, str]) -> Denial:
    what, instead = found
    return Denial("protected-file", f"{path} is {what}; writing it by hand would forge the record", instead)


def first_protected(candidates: list[str], where: guarded_paths.Where) -> Denial | None:
    for c in candidates:
        rel = where.resolve(c)
        found = guarded_paths.protected(rel) or guarded_paths.glob_protected(rel) or guarded_paths.unresolved_protected(c)
        if found:
            return protected_denial(c, found)
    return None


def delete_denial(target: str) -> Denial:
    return Denial("delete-harness", f"deleting {target} would erase the harness's record",
                  "tasks are never deleted: end one with `harness transition ESCALATED --reason \"CODE: why\"`, "
                  "or ask a human")


def hooks_path_denial() -> Denial:
    return Denial("hooks-path", "setting or overriding core.hooksPath points git away from the harness's hooks",
                  "leave core.hooksPath alone; `harness install` (or `pre-commit install`) manages the hooks")


def is_notes_ref(value: str, notes_ref: str, short: bool = True) -> bool:
    short_name = notes_ref.removeprefix("refs/notes/")
    return value in (notes_ref, "notes/" + short_name) or (short and value == short_name)


def hook_file_denial(path: str) -> Denial:
    return Denial("hook-file", f"{path} decides whether the harness's git hooks run; changing it from a shell "
                  "command could switch them off unseen",
                  "leave the hooks to `harness install` / `pre-commit install`; edit .pre-commit-config.yaml "
                  "with the edit tool, keeping every harness hook, or ask a human")


def unresolved_denial(word: str, where_it_stands: str) -> Denial:
    return Denial("unresolved", f"the guard cannot work out `{word}` ({where_it_stands}), and its value could "
                  "skip or rewrite what the harness checks",
                  "write the value out literally in the command, so the guard can read what will run")
