"""Test case ids, as the gate compares them: what names a case, and what proves one FAIL_TO_PASS.

A case id is what a JUnit report names: ``classname::name`` (pytest writes the module's dotted
path as classname, a class appended: ``tests.test_calc.TestAdd::test_one[2]``). People and
commands name the same case by pytest's node id (``tests/test_calc.py::TestAdd::test_one[2]``);
both spellings are accepted and compared in the report's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

SEPARATOR = "::"


def case_id(word: str) -> str:
    """The report's spelling of a case named either way (anything else is returned as given)."""
    path, sep, rest = word.partition(SEPARATOR)
    if not sep or not path.endswith(".py") or not rest:
        return word
    # A parameter id may hold `::` itself (test_a[x::y]): only what comes before it is the path of names.
    cut = rest.find("[")
    *classes, name = (rest if cut < 0 else rest[:cut]).split(SEPARATOR)
    name += "" if cut < 0 else rest[cut:]
    parts = [p for p in path[: -len(".py")].replace("\\", "/").split("/") if p not in ("", ".")]
    dotted = ".".join(parts)
    return f"{'.'.join([dotted, *classes])}{SEPARATOR}{name}"


def is_case(word: str) -> bool:
    """Whether a contract's `verified_by` entry names a test case rather than an evidence type."""
    return SEPARATOR in word


# pytest options whose node id is a case the run leaves out, not one it runs.
EXCLUDING = ("--deselect",)


def case_ids_in(argv: Iterable[str]) -> list[str]:
    """The cases a command names by node id (`pytest tests/test_x.py::test_y`): a finding's
    regression test run that way is these cases of the suite (a `--deselect`ed one is not)."""
    out, skip = set(), False
    for arg in argv:
        if skip or arg.split("=", 1)[0] in EXCLUDING:
            skip = arg in EXCLUDING  # `--deselect X`: X is the next word; `--deselect=X` is this one
            continue
        if SEPARATOR in arg and arg.partition(SEPARATOR)[0].endswith(".py"):
            out.add(case_id(arg))
    return sorted(out)


def in_file(case: str, path: str) -> bool:
    """Whether ``case`` (the report's spelling) is a test of the file ``path``."""
    module = case_id(f"{path}{SEPARATOR}x").partition(SEPARATOR)[0]
    classname = case.partition(SEPARATOR)[0]
    return classname == module or classname.startswith(module + ".")


def picks(node: str, case: str) -> bool:
    """Whether a command naming ``node`` runs ``case`` (both in the report's spelling): the case itself, one of
    its parameters (`test_neg` runs `test_neg[3-2]`), or a test of the class it names, nested ones too
    (`::NegTest` runs `NegTest::test_a`, reported as `module.NegTest::test_a`). A name that only starts like
    the node's (`test_negative`, class `NegTestCase`) is another test."""
    if case == node or case.startswith(node + "["):
        return True
    module, sep, name = node.partition(SEPARATOR)
    if not sep or not name or "[" in name:
        return False
    held_by, classname = f"{module}.{name}", case.partition(SEPARATOR)[0]
    return classname == held_by or classname.startswith(held_by + ".")


def regression_strays(tests: Iterable[str], path: str, command: str | list[str]) -> list[str]:
    """Of a regression test's named cases, those its command does not run: not tests of its file
    ``path``, or left out when the command picks cases by node id (:func:`picks`)."""
    argv = command if isinstance(command, list) else command.split()
    picked = case_ids_in(argv)
    return [c for c in tests if not in_file(c, path) or (picked and not any(picks(p, c) for p in picked))]


def _module_failed(before: Mapping[str, str], case: str) -> bool:
    """Whether the report lists the module of ``case`` (or a class holding it) as failed or errored:
    a test file that cannot import on the base's source is one entry, named by its module."""
    names = case.split(SEPARATOR, 1)[0].split(".")
    return any(before.get(".".join(names[:n])) in ("failed", "errors") for n in range(len(names), 0, -1))


# The outcome a FAIL_TO_PASS record keeps for a case its run could not run, its module (or the conftest.py above it)
# failing to import on the base's source, that the base's own run passed: it passed without the change, and nothing
# shows the change's version failing there (read 99's F-0349: one import in a new conftest.py made every old test
# "fail without the change").
PASSED_ON_BASE = "passed_on_base"


def with_base_passes(run: Mapping[str, str], base: Mapping[str, str]) -> dict[str, str]:
    """FAIL_TO_PASS's ``run`` (the change's tests on the base's source) with each case the base's own run ``base``
    passed that ``run`` does not list because its module could not import there, as :data:`PASSED_ON_BASE`. A case
    the base never had (a new test) stays absent: its module failing to import is what fails it without the change."""
    out = dict(run)
    for case, outcome in base.items():
        if outcome == "passed" and case not in run and _module_failed(run, case):
            out[case] = PASSED_ON_BASE
    return out


def stopped_modules(run: Mapping[str, str]) -> bool:
    """Whether ``run`` lists a test module (or the modules under a conftest.py) as failing to import: an entry
    named by its module alone, no case."""
    return any(SEPARATOR not in case and outcome in ("failed", "errors") for case, outcome in run.items())


def planned(entries: Iterable[str]) -> tuple[list[str], list[str]]:
    """A contract's `verified_by` split into (evidence types, test case ids in the report's spelling)."""
    listed = list(entries)
    return [e for e in listed if not is_case(e)], sorted({case_id(e) for e in listed if is_case(e)})


def fail_to_pass_gaps(label: str, what: str, tests: Iterable[str], now: Mapping[str, str],
                      before: Mapping[str, str]) -> list[str]:
    """Why ``tests`` do not prove ``what`` of ``label``: each must pass in ``now`` (the suite's run on
    this tree) and not pass in ``before`` (the base's source run with this change's tests). A test
    that passed before the change proves nothing about it; one that never ran there is not known to fail."""
    listed = list(tests)
    out = [not_passed(label, case, now) for case in listed if now.get(case) != "passed"]
    for case in listed:
        if before.get(case) == "passed":
            out.append(f"{label}: test {case} passes without the change (fail_to_pass): it does not prove {what}")
        elif before.get(case) == PASSED_ON_BASE:
            out.append(f"{label}: test {case} passes without the change (fail_to_pass: the base's own run passed it; "
                       f"here its module or conftest.py could not import): it does not prove {what}")
        elif case not in before and not _module_failed(before, case):
            # Absent without its module failing to import there: the base run never had it.
            out.append(f"{label}: test {case} was not collected without the change (fail_to_pass): name a test "
                       "of the protected suite that fails there")
    return out


def not_passed(label: str, case: str, now: Mapping[str, str]) -> str:
    """Why ``case`` proves nothing in the run ``now``. A test named without its parameters, or a class named as if it
    were a test, is not one case of the report but several: they are named, so the citation can list each (a bare
    name never stands for all of them)."""
    text = f"{label}: test {case} did not pass in the cited run"
    if case in now:
        return text
    held = sorted(c for c in now if c != case and picks(case, c))
    if not held:
        return text
    shown = ", ".join(held[:3]) + (f", … ({len(held)} in all)" if len(held) > 3 else "")
    # A class named like a test (`path::NegTest`) is no case either: the report names each test it holds.
    kind = "parametrized cases" if all(c.startswith(case + "[") for c in held) else "the cases of its class"
    return f"{text}: it ran as {kind} ({shown}); cite each one that proves it"


def regression_cases(regression: Mapping[str, Any]) -> list[str]:
    """The suite's cases a finding's regression test is: named with --tests, else by its command."""
    return sorted(set(regression.get("tests") or case_ids_in(regression.get("argv") or [])))


def regression_gaps(fid: str, regression: Mapping[str, Any]) -> list[str]:
    """Why a finding's regression test is no case of the suite: it names none, or names cases its
    command does not run (a ledger written by hand can claim any)."""
    tests, path = regression_cases(regression), regression.get("path") or ""
    if not tests:
        return [f"Finding {fid}: its regression test {path} names no case of the suite (run it by node id, "
                f"`pytest {path}::test_name`, or give --tests to `harness finding regression`)"]
    strays = regression_strays(tests, path, regression.get("argv") or regression.get("command") or [])
    return [f"Finding {fid}: its regression test names {', '.join(strays)}, which its command does not run "
            f"(cases of {path} it runs count)"] if strays else []


def proving(requirements: Iterable[Mapping[str, Any]], plan: Mapping[str, list[str]],
            findings: Iterable[Mapping[str, Any]], suite: bool) -> list[str]:
    """Every case a DONE verdict leans on as FAIL_TO_PASS: those of each verified must requirement
    (named, or planned by its contract) and, with a protected suite, of each verified finding's
    regression test. CI's re-run measures these again."""
    out = {c for r in requirements if r["priority"] == "must" and r["status"] == "verified"
           for c in [*(r.get("tests") or []), *planned(plan.get(r["id"], []))[1]]}
    if suite:
        out |= {c for f in findings if f["status"] in ("VERIFIED", "CLOSED") and f.get("regression_test")
                for c in regression_cases(f["regression_test"])}
    return sorted(out)


def cases_text(cases: dict[str, str], redactor: Any = None) -> bytes:
    """The file beside an evidence record listing every case of its report, a line each: outcome, tab, id (a
    backslash, line feed or tab inside an id written as \\\\, \\n, \\t)."""
    def shown(case: str) -> str:
        return (redactor.redact(case) if redactor else case).replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
    return "".join(f"{outcome}\t{shown(case)}\n" for case, outcome in sorted(cases.items())).encode("utf-8")


_UNESCAPE = {"\\\\": "\\", "\\n": "\n", "\\t": "\t"}


def read_cases(raw: bytes) -> dict[str, str]:
    """What :func:`cases_text` wrote. Lines end at a line feed only: an id may hold U+2028 or a CR."""
    import re

    out = {}
    for line in raw.decode("utf-8").split("\n"):
        if line:
            outcome, _, case = line.partition("\t")
            out[re.sub(r"\\[\\nt]", lambda m: _UNESCAPE[m.group()], case)] = outcome
    return out
