"""A small deterministic mutation run: how many one-token changes to a reader do its tests kill?

Each target names a function of a harness module and the tests that should notice a change to
it. Every mutant changes one node of that function's syntax tree (a comparison or boolean
operator flipped, a `not` dropped, a constant changed, a `raise` or a `return` value dropped);
the mutant lives in a copy of the checkout under a temporary folder, where its tests run, so
the worktree is never touched. A mutant is killed when the tests fail (or time out), survives
when they pass. Usage: `.venv/bin/python bench/mutate.py [--list] [TARGET_PREFIX ...]`.
"""

from __future__ import annotations

import ast
import copy
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUZZ = "tests/test_fuzz_installer_and_agent_readers.py"
# (module file, function, pytest arguments)
TARGETS = [
    ("harness/agent/settings_text.py", "load", [FUZZ, "-k", "settings", "tests/test_agent_settings_round_trip.py"]),
    ("harness/agent/settings_text.py", "_no_duplicates", [FUZZ, "-k", "settings or duplicate or twice",
                                                          "tests/test_agent_settings_round_trip.py"]),
    ("harness/agent/hook_settings.py", "read_settings", [FUZZ, "-k", "settings", "tests/test_agent_settings_round_trip.py",
                                                   "tests/test_agent_install.py", "-m", "not e2e"]),
    ("harness/install/journal.py", "read", [FUZZ, "-k", "record", "tests/test_typed_reads.py", "-k",
                                                     "record or install"]),
    ("harness/install/journal.py", "_problem", [FUZZ, "-k", "record", "tests/test_install_record_types.py"]),
    ("harness/install/server.py", "record_problem", [FUZZ, "-k", "record",
                                                              "tests/test_install_record_types.py"]),
    ("harness/agent/skills_install.py", "_read_manifest", [FUZZ, "-k", "manifest", "tests/test_skills_install.py"]),
    ("harness/agent/hosts/__init__.py", "read_payload", [FUZZ, "-k", "payload"]),
    ("harness/history/audit.py", "note_problem", [FUZZ, "-k", "note"]),
    ("harness/core/approvals.py", "_entries", [FUZZ, "-k", "approvals"]),
    ("harness/agent/stopstate.py", "read_log", [FUZZ, "-k", "log"]),
]
FLIPS = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot,
         ast.IsNot: ast.Is, ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt,
         ast.And: ast.Or, ast.Or: ast.And}


def mutants(func: ast.FunctionDef) -> list[tuple[str, ast.FunctionDef]]:
    """(description, mutated copy of ``func``) for each single-node change."""
    out = []
    count = sum(1 for _ in ast.walk(func))
    for index in range(count):
        for variant in range(2):
            mutated = copy.deepcopy(func)
            node = list(ast.walk(mutated))[index]
            what = _mutate(node, variant, mutated)
            if what:
                out.append((f"line {getattr(node, 'lineno', '?')}: {what}", mutated))
    return out


def _mutate(node: ast.AST, variant: int, func: ast.FunctionDef) -> str | None:
    if variant == 0 and isinstance(node, ast.Compare) and type(node.ops[0]) in FLIPS:
        node.ops[0] = FLIPS[type(node.ops[0])]()
        return "comparison flipped"
    if variant == 0 and isinstance(node, ast.BoolOp):
        node.op = FLIPS[type(node.op)]()
        return "and/or swapped"
    if variant == 0 and isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node.__class__ = ast.Call  # `not x` becomes `bool(x)`
        node.func, node.args, node.keywords = ast.Name("bool", ast.Load()), [node.operand], []
        return "`not` dropped"
    if variant == 0 and isinstance(node, ast.Constant) and isinstance(node.value, bool):
        node.value = not node.value
        return "boolean constant flipped"
    if variant == 0 and isinstance(node, ast.Constant) and isinstance(node.value, int):
        node.value += 1
        return "number constant + 1"
    if variant == 1 and isinstance(node, ast.Raise):
        node.__class__ = ast.Pass
        return "raise dropped"
    if variant == 1 and isinstance(node, ast.Return) and node.value is not None and node is not func:
        node.value = ast.Constant(None)
        return "return value dropped"
    return None


def run(targets: list[tuple[str, str, list[str]]]) -> tuple[int, int, list[str]]:
    killed, survived, survivors = 0, 0, []
    with tempfile.TemporaryDirectory(prefix="harness-mutants-") as tmp:
        copy_root = Path(tmp)
        # The whole checkout (tests, data, pytest's configuration), run from there: `python -m`
        # puts the working folder first on sys.path, ahead of the editable install's.
        shutil.copytree(ROOT, copy_root, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", ".venv", ".git", "out", ".hypothesis"))
        env = {**os.environ, "PYTHONPATH": str(copy_root), "PYTHONDONTWRITEBYTECODE": "1"}
        where = subprocess.run([sys.executable, "-c", "import harness; print(harness.__file__)"], cwd=copy_root,
                               env=env, capture_output=True, text=True, check=True).stdout.strip()
        if not where.startswith(str(copy_root)):
            raise SystemExit(f"the tests would import {where}, not the mutated copy")
        for rel, name, args in targets:
            source = (ROOT / rel).read_text("utf-8")
            tree = ast.parse(source)
            func = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)
            if not _tests_pass(args, env):
                raise SystemExit(f"the tests of {rel}:{name} fail unmutated: {args}")
            for what, mutated in mutants(func):
                new = _replace(tree, func, mutated)
                (copy_root / rel).write_text(ast.unparse(ast.fix_missing_locations(new)), "utf-8")
                alive = _tests_pass(args, env)
                survived, killed = survived + alive, killed + (not alive)
                if alive:
                    survivors.append(f"{rel}:{name} {what}")
                print(f"{rel}:{name} {what}: {'SURVIVED' if alive else 'killed'}", file=sys.stderr, flush=True)
            (copy_root / rel).write_text(source, "utf-8")
    return killed, survived, survivors


def _replace(tree: ast.Module, func: ast.FunctionDef, mutated: ast.FunctionDef) -> ast.Module:
    new = copy.deepcopy(tree)
    for parent in ast.walk(new):
        for _field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for i, child in enumerate(value):
                    if isinstance(child, ast.FunctionDef) and child.name == func.name and child.lineno == func.lineno:
                        value[i] = mutated
                        return new
    raise LookupError(func.name)


def _tests_pass(args: list[str], env: dict[str, str]) -> bool:
    try:
        p = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-n", "0", *args],
                           cwd=env["PYTHONPATH"], env=env, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return False
    return p.returncode == 0


def main(argv: list[str]) -> int:
    chosen = [t for t in TARGETS if not [a for a in argv if a != "--list"]
              or any(f"{t[0]}:{t[1]}".startswith(a) for a in argv if a != "--list")]
    if "--list" in argv:
        for rel, name, _ in chosen:
            tree = ast.parse((ROOT / rel).read_text("utf-8"))
            func = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)
            print(f"{rel}:{name}: {len(mutants(func))} mutants")
        return 0
    killed, survived, survivors = run(chosen)
    print(f"mutants: {killed + survived}, killed: {killed}, survived: {survived}")
    for line in survivors:
        print(f"  survived: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
