"""Gate policy changes: tightening is free, loosening needs a human's approval.

Pure: two `gate:` mappings in, the list of loosenings out (empty means the change only
tightens or keeps the policy).
"""

from __future__ import annotations

from collections.abc import Callable

from harness.core import suite

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

CEILINGS = (
    ("requirements", "uncovered_allowed"), ("invariants", "violated_allowed"),
    ("findings", "critical_allowed"), ("findings", "major_allowed"),
    ("regression", "confirmed_finding_without_test"), ("convergence", "max_iterations"),
)
# Ceilings a policy may leave out, with the value that holds when it does.
OPTIONAL_CEILINGS = ((("convergence", "stalled_iterations"), 3),)
SWITCHES = (("requirements", "must_verified"), ("evidence", "must_match_head"))
OPTIONAL_SWITCHES = (("requirements", "must_have_tests"),)  # absent means off
STRENGTH = {"required": 2, "optional": 1, None: 0}


def loosenings(old: dict, new: dict) -> list[str]:
    out = []
    for section, key in CEILINGS:
        a, b = old[section][key], new[section][key]
        if b > a:
            out.append(f"{section}.{key} raised {a} → {b}")
    for (section, key), default in OPTIONAL_CEILINGS:
        a, b = old[section].get(key, default), new[section].get(key, default)
        if b > a:
            out.append(f"{section}.{key} raised {a} → {b}")
    for section, key in SWITCHES:
        if old[section][key] and not new[section][key]:
            out.append(f"{section}.{key} turned off")
    for section, key in OPTIONAL_SWITCHES:
        if old[section].get(key) and not new[section].get(key):
            out.append(f"{section}.{key} turned off")
    for etype, level in old["verification"].items():
        after = new["verification"].get(etype)
        if STRENGTH[after] < STRENGTH[level]:
            out.append(f"verification.{etype} {level} → {after or 'removed'}")
    return out + suite.loosenings(old.get("suite"), new.get("suite")) + _history(old, new)


def _history(old: dict, new: dict) -> list[str]:
    """Unprotecting a ref loosens: a force push over it then passes without an approval."""
    def protected(doc: dict) -> set[str]:
        return set((doc.get("history") or {}).get("protected", ["default"]))
    return [f"history.protected {ref} removed" for ref in sorted(protected(old) - protected(new))]


def default_gate_text(template: str, configured: list[str]) -> str:
    """The shipped gate.yaml with its verification block derived from the evidence types
    config.yaml configures: those are required, the template's other types optional.

    With nothing configured the template stands as shipped (build and unit_test required):
    a policy never starts looser because a command was left out.
    """
    if not configured:
        return template
    lines = template.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("  verification:"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("    "))
    listed = [line.split(":")[0].strip() for line in lines[start + 1:end]]
    types = listed + [t for t in configured if t not in listed]
    block = [f"    {t}: {'required' if t in configured else 'optional'}\n" for t in types]
    return "".join(lines[:start + 1] + block + lines[end:])


def spelled_argv(argv: list[str]) -> str:
    """A command as a person reads it with its words' boundaries: one word as it is (a program, a shell line, a
    pattern), more as the list config.yaml holds. Joined with spaces, `["sh", "-c", "python3", "-m", "pytest"]` (which
    runs `python3` alone) read as `sh -c 'python3 -m pytest'` and was approved (read 156's F-0550)."""
    import json

    return argv[0] if len(argv) == 1 else json.dumps(argv, ensure_ascii=False)


def command_changes(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]],
                    shown: Callable[[list[str]], str] = spelled_argv) -> list[str]:
    """Which command proves a type is policy too: every configured command added, changed or removed
    (swapping `pytest` for `true` loosens the gate), and so is whatever else decides its pass or
    fail — its JUnit report (without it, a run whose tests failed but exited 0 passes) and whether
    a shell runs it. ``before``/``after``: type -> command identity. A command added for a new type is
    listed too: committed first, it is "configured at the base" of a task started after it, and would
    verify with no human's word (read 54's F-0108). ``shown`` spells a command in the list (an approval keeps the
    list: its caller redacts what it shows, read 63b's F-0174); the commands are compared as they are."""
    out = [f"evidence.{t}.command added: {shown(new['argv'])!r}" for t, new in after.items() if t not in before]
    for t, old in before.items():
        new = after.get(t)
        if new is None:
            out.append(f"evidence.{t}.command {shown(old['argv'])!r} → removed")
            continue
        if new["argv"] != old["argv"]:
            out.append(f"evidence.{t}.command {shown(old['argv'])!r} → {shown(new['argv'])!r}")
        if old.get("junit") and new.get("junit") != old["junit"]:  # adding a report only tightens
            out.append(f"evidence.{t}.junit {old['junit']!r} → {new.get('junit')!r}")
        if new.get("shell") != old.get("shell"):
            out.append(f"evidence.{t}.shell {old.get('shell')!r} → {new.get('shell')!r}")
    return out
