"""Rules about the test suite itself, checked on its source.

No test asserts a wall-clock upper bound. How long something took depends on the machine and on
what else runs on it: `bash .ci/run` failed on a busy 2-core machine on bounds that held alone.
A test holds behaviour (what was recorded, what was handed to whom, how much was kept); speed is
measured in bench/ (`bash bench/run`), as ratios of things timed side by side in one run. A lower
bound (it waited at least this long) cannot fail because the machine is slow, and stays allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# time's clocks; datetime's now(); a run's duration as the harness recorded it (wall time too).
CLOCKS = {"monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "time", "time_ns", "process_time",
          "process_time_ns", "thread_time", "thread_time_ns"}
NOW = {"now", "utcnow"}
RECORDED = {"duration_s"}


def _names(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


class _Clocks:
    """What in one module reads a clock: direct calls, names assigned from a reading (``elapsed =
    time.monotonic() - t0``), loop variables over one, functions returning or yielding one."""

    def __init__(self, module: ast.Module) -> None:
        self.time_modules = {"time"}
        self.functions: set[str] = set()  # called, these read a clock
        self.tainted: set[str] = set()
        for node in ast.walk(module):
            if isinstance(node, ast.Import):
                self.time_modules |= {a.asname or a.name for a in node.names if a.name == "time"}
            elif isinstance(node, ast.ImportFrom) and node.module == "time":
                self.functions |= {a.asname or a.name for a in node.names if a.name in CLOCKS}
        while True:  # until nothing new is tainted: a reading passes through any number of names
            before = len(self.tainted) + len(self.functions)
            for node in ast.walk(module):
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    if node.value is not None and self.reads(node.value):
                        for target in targets:
                            self.tainted |= _names(target)
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    if self.reads(node.iter):
                        self.tainted |= _names(node.target)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                        isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) and n.value is not None
                        and self.reads(n.value) for n in ast.walk(node)):
                    self.functions.add(node.name)
            if len(self.tainted) + len(self.functions) == before:
                break

    def reads(self, expr: ast.AST) -> bool:
        return any(self._reading(n) for n in ast.walk(expr))

    def _reading(self, n: ast.AST) -> bool:
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name):
                return f.id in self.functions
            return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and (
                (f.attr in CLOCKS and f.value.id in self.time_modules) or (f.attr in NOW and f.value.id == "datetime"))
        if isinstance(n, ast.Name):
            return n.id in self.tainted
        if isinstance(n, ast.Attribute):
            return n.attr in RECORDED
        return isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and n.slice.value in RECORDED


def wall_clock_bounds(source: str, filename: str = "<test>") -> list[str]:
    """``file:line: assert ...`` for every assert that holds a clock reading below something."""
    module = ast.parse(source, filename)
    clocks = _Clocks(module)
    found = []
    for node in ast.walk(module):
        if not isinstance(node, ast.Assert):
            continue
        for cmp in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
            operands = [cmp.left, *cmp.comparators]
            for op, left, right in zip(cmp.ops, operands, operands[1:]):
                if ((isinstance(op, (ast.Lt, ast.LtE)) and clocks.reads(left))
                        or (isinstance(op, (ast.Gt, ast.GtE)) and clocks.reads(right))):
                    found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
                    break
            else:
                continue
            break
    return found


def test_no_test_asserts_a_wall_clock_upper_bound():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        found += wall_clock_bounds(path.read_text("utf-8"), path.relative_to(TESTS.parent).as_posix())
    assert found == [], "wall-clock upper bounds (move the speed claim to bench/ as a ratio):\n" + "\n".join(found)


# -- the checker itself ------------------------------------------------------------------------

def test_the_checker_flags_a_clock_reading_held_below_a_bound_naming_file_and_line():
    src = "import time\nt0 = time.monotonic()\nrun()\nassert time.monotonic() - t0 < 5\n"
    assert wall_clock_bounds(src, "tests/test_x.py") == ["tests/test_x.py:4: assert time.monotonic() - t0 < 5"]


def test_the_checker_follows_a_reading_through_names_loops_and_functions():
    flagged = [
        "elapsed = time.monotonic() - t0\nassert elapsed < 5",
        "took = time.perf_counter() - t\nassert 5 > took",
        "took = time.perf_counter() - t\nassert took <= 5",
        "done = time.time()\nassert done - ended < 5",
        "start = time.monotonic()\nspan = time.monotonic() - start\nwaited = span\nassert 0.6 <= waited < 30",
        "from time import perf_counter as pc\nassert pc() - t < 1",
        "import time as clock\nassert clock.process_time() <= 2",
        "def timings():\n    t = time.perf_counter()\n    yield time.perf_counter() - t\n"
        "assert any(took <= 3 for took in timings())",
        "assert datetime.now() - begun < limit",
        'assert rec["duration_s"] < 15',
        "assert r.outcome == 'timeout' and r.duration_s < 5",
    ]
    for src in flagged:
        assert len(wall_clock_bounds("import time\n" + src)) == 1, src


def test_the_checker_leaves_lower_bounds_other_values_and_deadline_loops_alone():
    allowed = [
        "waited = time.monotonic() - start\nassert waited >= 0.6",
        "waited = time.monotonic() - start\nassert 2 <= waited",
        "assert r.duration_s > 0.9",
        'assert rec["x"] < 5',
        "assert len(log) <= cap + 200",
        "deadline = time.monotonic() + 10\nwhile time.monotonic() < deadline:\n    pass",
        "deadline = time.monotonic() + 10\nif time.monotonic() > deadline:\n    raise TimeoutError",
        "assert rec['finished_at'] >= rec['started_at']",
    ]
    for src in allowed:
        assert wall_clock_bounds("import time\n" + src) == [], src
