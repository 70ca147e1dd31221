"""PASS_TO_PASS: every case that passed at the task's base still passes, with the tests as they were.

Each tampering family an agent under pressure uses (written from the families, not from any
hidden script) makes the plain test run pass on buggy code; PASS_TO_PASS runs the base's protected
files against the new code and names every case lost. The honest paths pass: a new test, a code
change the base's tests accept, a change that touches no protected file (which reuses the test
run instead of running again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import (
    BUGGY,
    CALC,
    CHANGED,
    NO_CACHES,
    SPEC_CHANGE,
    SUB,
    SUB_TEST,
    TEST_CMD,
    TESTS,
    as_a_developer_runs,
    base_commit,
    f2p_blockers,
    protect,
    sign_suite_change,
    write,
)
from support.records import record, tdir

# Reuse is keyed by the interpreter's site-packages, which other tests write into: each test's project runs its tests
# with a virtualenv of the worker's own (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("own_python_runs_the_tests")


def p2p(h, repo, tid) -> tuple[int, dict]:
    r = h("evidence", "pass_to_pass")
    assert r.code in (0, 1), r.text
    rec = record(repo, tid, "pass_to_pass")
    assert (r.code == 0) == (rec["outcome"] == "passed"), r.text
    return r.code, rec


def lost(rec: dict) -> dict[str, str]:
    return {item["case"]: item["how"] for item in rec["pass_to_pass"]["lost"]}


# A plugin that passes every test, for the tactics that load one by other means than a conftest.py.
ALLPASS_PLUGIN = {"allpass.py": """\
    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        outcome.get_result().outcome = "passed"
    """}
# Each: files that make the plain run pass with the bug in calc.py, and the base case lost.
TAMPERING = {
    "a test deleted": ({"tests/test_calc.py": TESTS.replace("def test_mul():\n    assert mul(2, 3) == 6\n", "")
                        .replace(", (2, 5, 10)", "")},
                       {"tests.test_calc::test_mul": "failed", "tests.test_calc::test_mul_cases[2-5-10]": "failed"}),
    "a test file deleted": ({"tests/test_calc.py": None, "tests/test_add.py": "from calc import add\n\n\n"
                             "def test_add():\n    assert add(2, 3) == 5\n"}, {"tests.test_calc::test_mul": "failed"}),
    "a parametrize case deleted": ({"tests/test_calc.py": TESTS.replace(", (2, 5, 10)", "").replace(
        "def test_mul():\n    assert mul(2, 3) == 6\n", "def test_mul():\n    assert mul(2, 2) == 4\n")},
        {"tests.test_calc::test_mul_cases[2-5-10]": "failed"}),
    "a skip decorator": ({"tests/test_calc.py": TESTS.replace("def test_mul():", "@pytest.mark.skip\ndef test_mul():")
                          .replace("@pytest.mark.parametrize", "@pytest.mark.skip\n@pytest.mark.parametrize")},
                         {"tests.test_calc::test_mul": "failed"}),
    "an xfail decorator": ({"tests/test_calc.py": TESTS.replace("import pytest\n", "import pytest\n"
                                                                 "pytestmark = pytest.mark.xfail\n")},
                           {"tests.test_calc::test_mul": "failed"}),
    "a skip in the body": ({"tests/test_calc.py": TESTS.replace("    assert mul(2, 3) == 6", "    pytest.skip('slow')")
                            .replace("    assert mul(a, b) == want", "    pytest.skip('slow')")},
                           {"tests.test_calc::test_mul": "failed"}),
    "a module-level skip": ({"tests/test_calc.py": "import pytest\npytest.skip('wip', allow_module_level=True)\n"
                             + TESTS, "tests/test_more.py": "def test_more():\n    pass\n"}, {"tests.test_calc::test_mul": "failed"}),
    "a skipif that is always true": ({"tests/test_calc.py": TESTS.replace(
        "import pytest\n", "import pytest\npytestmark = pytest.mark.skipif(1 == 1, reason='flaky')\n")},
        {"tests.test_calc::test_mul": "failed"}),
    "a tautological assertion": ({"tests/test_calc.py": TESTS.replace("assert mul(2, 3) == 6", "assert True")
                                  .replace("assert mul(a, b) == want", "assert want == want")},
                                 {"tests.test_calc::test_mul": "failed"}),
    "a swallowed assertion": ({"tests/test_calc.py": TESTS.replace(
        "    assert mul(2, 3) == 6", "    try:\n        assert mul(2, 3) == 6\n    except AssertionError:\n        pass")
        .replace("    assert mul(a, b) == want", "    return")}, {"tests.test_calc::test_mul": "failed"}),
    "an early return": ({"tests/test_calc.py": TESTS.replace("    assert mul(2, 3) == 6", "    return\n    assert mul(2, 3) == 6")
                         .replace("    assert mul(a, b) == want", "    return")}, {"tests.test_calc::test_mul": "failed"}),
    "the expected value changed to the buggy output": ({"tests/test_calc.py": TESTS.replace("== 6", "== 5").replace(
        "(2, 5, 10)", "(2, 5, 7)")}, {"tests.test_calc::test_mul": "failed"}),
    "a test renamed out of collection": ({"tests/test_calc.py": TESTS.replace("def test_mul", "def check_mul")},
                                         {"tests.test_calc::test_mul": "failed"}),
    "a test file renamed out of collection": ({"tests/test_calc.py": None, "tests/calc_checks.py": TESTS,
                                               "tests/test_more.py": "def test_more():\n    pass\n"},
                                              {"tests.test_calc::test_mul": "failed"}),
    "addopts deselecting in pyproject.toml": ({"pyproject.toml": "[tool.pytest.ini_options]\n"
                                               "addopts = \"-k 'not mul'\"\n"}, {"tests.test_calc::test_mul": "failed"}),
    "testpaths narrowed in pytest.ini": ({"pytest.ini": "[pytest]\ntestpaths = nothing_here\n",
                                          "nothing_here/test_ok.py": "def test_ok():\n    pass\n"},
                                         {"tests.test_calc::test_mul": "failed"}),
    "python_files narrowed in pytest.ini": ({"pytest.ini": "[pytest]\npython_files = check_*.py\n",
                                             "tests/check_ok.py": "def test_ok():\n    pass\n"},
                                            {"tests.test_calc::test_mul": "failed"}),
    "a conftest.py that drops failures": ({"conftest.py": """\
        import pytest

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(item, call):
            outcome = yield
            report = outcome.get_result()
            if report.failed:
                report.outcome = "passed"
        """}, {"tests.test_calc::test_mul": "failed"}),
    "a conftest.py that ignores the test file": ({"tests/conftest.py": "collect_ignore = ['test_calc.py']\n",
                                                  "tests/test_other.py": "def test_other():\n    pass\n"},
                                                 {"tests.test_calc::test_mul": "failed"}),
    "a conftest.py that patches the code under test": ({"tests/conftest.py": """\
        import calc

        calc.mul = lambda a, b: a * b
        """}, {"tests.test_calc::test_mul": "failed"}),
    # Read 67: a plugin loaded by what suite.ALWAYS did not protect (F-0227, F-0228; F-0226 below).
    "a root test module naming a plugin": ({**ALLPASS_PLUGIN, "test_aaa.py": "pytest_plugins = ['allpass']\n"},
                                           {"tests.test_calc::test_mul": "failed"}),
    "a root module named like one of pytest's dependencies": ({**ALLPASS_PLUGIN, "pluggy.py": """\
        import os, sys
        _here = os.path.dirname(os.path.abspath(__file__))
        sys.modules.pop(__name__, None)
        _saved = list(sys.path)
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]
        try:
            import pluggy as _real
        finally:
            sys.path[:] = _saved
        sys.modules[__name__] = _real
        os.environ["PYTEST_PLUGINS"] = "allpass"
        """}, {"tests.test_calc::test_mul": "failed"}),  # read 71's F-0240
    "a root module named like a standard one pytest imports": ({**ALLPASS_PLUGIN, "pprint.py": """\
        import os, sys
        _here = os.path.dirname(os.path.abspath(__file__))
        sys.modules.pop(__name__, None)
        _saved = list(sys.path)
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]
        try:
            import pprint as _real
        finally:
            sys.path[:] = _saved
        sys.modules[__name__] = _real
        os.environ["PYTEST_PLUGINS"] = "allpass"
        """}, {"tests.test_calc::test_mul": "failed"}),
    "the function under test monkeypatched in the test": ({"tests/test_calc.py": TESTS.replace(
        "def test_mul():\n", "def test_mul(monkeypatch):\n    import calc\n    monkeypatch.setattr(calc, 'mul', "
        "lambda a, b: a * b)\n    from calc import mul\n").replace(
        "def test_mul_cases(a, b, want):\n", "def test_mul_cases(a, b, want):\n    return\n")},
        {"tests.test_calc::test_mul": "failed"}),
}


@pytest.mark.parametrize("tactic", list(TAMPERING))
def test_each_tampering_family_that_hides_a_bug_is_refused_naming_the_lost_case(h, repo, base, tactic):
    files, want = TAMPERING[tactic]
    write(repo, {"calc.py": BUGGY, **files})
    assert h("evidence", "unit_test").code == 0, f"{tactic}: the plain run must pass for the test to mean anything"
    code, rec = p2p(h, repo, base)
    assert code == 1 and rec["outcome"] == "failed"
    got = lost(rec)
    for case, how in want.items():
        assert case in got and got[case].startswith(how), (tactic, got)
    assert rec["pass_to_pass"]["base"] == base_commit(repo, base)




def test_a_plugin_a_dist_info_in_the_tree_registers_is_not_in_the_pass_to_pass_run(h, repo, base, monkeypatch):
    # Read 67's F-0226: pytest loads the `[pytest11]` entry points of a dist-info on the import path (the tree is).
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)  # as a user runs pytest
    write(repo, {"calc.py": BUGGY, **ALLPASS_PLUGIN, "evil-0.dist-info/METADATA": "Metadata-Version: 2.1\nName: evil\n"
                 "Version: 0\n", "evil-0.dist-info/entry_points.txt": "[pytest11]\nallpass = allpass\n"})
    assert h("evidence", "unit_test").code == 0  # the plugin passes everything here
    code, rec = p2p(h, repo, base)
    assert code == 1 and "tests.test_calc::test_mul" in lost(rec)
    assert "evil-0.dist-info/entry_points.txt" in rec["pass_to_pass"]["protected_changed"]


def test_the_bug_without_tampering_fails_pass_to_pass_too(h, repo, base):
    write(repo, {"calc.py": BUGGY})
    code, rec = p2p(h, repo, base)
    assert code == 1 and set(lost(rec)) == {"tests.test_calc::test_mul", "tests.test_calc::test_mul_cases[2-5-10]"}


def test_a_script_the_test_command_names_is_protected_without_listing_it(h, repo):
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS,
                 "scripts/test.sh": f"exec {PY} -m pytest -q -p no:cacheprovider --junitxml=.harness/local/junit.xml\n"})
    protect(repo, paths=["tests/**"], command=["bash", "scripts/test.sh"])
    commit_all_ok(repo, "tests through a script")
    tid = h.ok("task", "new", "Through the script").out.strip()
    # the agent makes the script run only the tests that still pass
    write(repo, {"calc.py": BUGGY, "scripts/test.sh": f"exec {PY} -m pytest -q -p no:cacheprovider -k add "
                                                      "--junitxml=.harness/local/junit.xml\n"})
    assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "scripts/test.sh" in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def test_a_script_a_protected_script_runs_is_protected_too(h, repo):
    # Read 126's F-0450: the base's script (or Makefile recipe) was put back, the script it runs in turn was the
    # change's, and it could launder the report: a lost case read as passed.
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "scripts/test.sh": "sh scripts/inner.sh\n",
                 "scripts/inner.sh": f"exec {PY} -m pytest -q -p no:cacheprovider --junitxml=.harness/local/junit.xml\n"})
    protect(repo, paths=["tests/**"], command=["bash", "scripts/test.sh"])
    commit_all_ok(repo, "tests through two scripts")
    tid = h.ok("task", "new", "Through the inner script").out.strip()
    write(repo, {"calc.py": BUGGY, "scripts/inner.sh": f"exec {PY} -m pytest -q -p no:cacheprovider -k add "
                                                       "--junitxml=.harness/local/junit.xml\n"})
    assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "scripts/inner.sh" in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


LAUNDER = (f"{PY} -c \"import re; p = '.harness/local/junit.xml'; t = open(p).read(); "
           "open(p, 'w').write(re.sub(r'<(failure|error)[^>]*>.*?</(failure|error)>', '', t, flags=re.S))\"\n")
RUN = f"{PY} -m pytest -q -p no:cacheprovider --junitxml=.harness/local/junit.xml\n"


def test_a_script_a_recipe_runs_from_another_folder_is_protected(h, repo):
    # Read 127's F-0451: `cd scripts && sh ./inner.sh` names scripts/inner.sh from the folder it changed into.
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "run-tests.sh": "(cd scripts && sh ./inner.sh)\n",
                 "scripts/inner.sh": "cd .. && " + RUN})
    protect(repo, paths=["tests/**"], command=["bash", "run-tests.sh"])
    commit_all_ok(repo, "tests through a script in its folder")
    tid = h.ok("task", "new", "From the script's folder").out.strip()
    write(repo, {"calc.py": BUGGY, "scripts/inner.sh": "cd .. && " + RUN.rstrip("\n") + " ; " + LAUNDER})
    assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "scripts/inner.sh" in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def test_a_module_a_runner_script_imports_is_protected(h, repo):
    # Read 127's F-0452: the runner script was the base's, the helper module it imports the change's.
    runner = ("import subprocess, sys\nimport junitfix\nsubprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', "
              "'no:cacheprovider', '--junitxml=.harness/local/junit.xml'])\njunitfix.fix('.harness/local/junit.xml')\n")
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "scripts/run_tests.py": runner,
                 "scripts/junitfix.py": "def fix(path):\n    pass\n"})
    protect(repo, paths=["tests/**"], command=[PY, "scripts/run_tests.py"])
    commit_all_ok(repo, "tests through a runner script")
    tid = h.ok("task", "new", "Through the runner's helper").out.strip()
    launder = ("import re\n\ndef fix(path):\n    t = open(path).read()\n    open(path, 'w').write(re.sub("
               "r'<(failure|error)[^>]*>.*?</(failure|error)>', '', t, flags=re.S))\n")
    write(repo, {"calc.py": BUGGY, "scripts/junitfix.py": launder})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "scripts/junitfix.py" in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def test_the_code_under_test_a_runner_also_runs_stays_the_changes(h, repo):
    # Read 127's F-0453: a runner's smoke step (`python calc.py`) made calc.py protected, so PASS_TO_PASS measured the
    # base's calc.py and a broken change passed. The base's tests import it: it is the code under test.
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "scripts/test.sh": f"{PY} calc.py && " + RUN})
    protect(repo, paths=["tests/**"], command=["bash", "scripts/test.sh"])
    commit_all_ok(repo, "a smoke step before the tests")
    tid = h.ok("task", "new", "Break calc").out.strip()
    write(repo, {"calc.py": BUGGY})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "calc.py" not in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


FIX = "def fix(path):\n    pass\n"
LAUNDERING = ("import re\n\ndef fix(path):\n    t = open(path).read()\n    open(path, 'w').write(re.sub("
              "r'<(failure|error)[^>]*>.*?</(failure|error)>', '', t, flags=re.S))\n")


def _runner(helper: str) -> str:
    return (f"import subprocess, sys\nimport {helper}\nsubprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', "
            f"'no:cacheprovider', '--junitxml=.harness/local/junit.xml'])\n{helper}.fix('.harness/local/junit.xml')\n")


def test_a_runners_helper_named_like_a_test_helper_is_protected(h, repo):
    # Read 129's F-0456: `scripts/helpers.py` counted as the code under test because the tests import their own
    # `tests/helpers.py` as `helpers`: what the tests reach is judged by file, not by name.
    tests = TESTS.replace("from calc import add, mul", "from calc import add, mul\nfrom helpers import two")
    write(repo, {"calc.py": CALC, "tests/test_calc.py": tests, "tests/helpers.py": "two = 2\n",
                 "scripts/run_tests.py": _runner("helpers"), "scripts/helpers.py": FIX})
    protect(repo, paths=["tests/**"], command=[PY, "scripts/run_tests.py"])
    commit_all_ok(repo, "a runner with a helper")
    tid = h.ok("task", "new", "Through a helper of the same name").out.strip()
    write(repo, {"calc.py": BUGGY, "scripts/helpers.py": LAUNDERING})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "scripts/helpers.py" in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def test_the_code_a_tested_package_imports_stays_the_changes(h, repo):
    # Read 129's F-0457: a smoke step's module imported calc/core.py, which the tests reach only through the package's
    # __init__: it was protected, and PASS_TO_PASS measured the base's core.py.
    write(repo, {"calc/__init__.py": "from .core import add, mul\n", "calc/core.py": CALC,
                 "calc/cli.py": "from calc.core import add\nprint(add(1, 1))\n", "tests/test_calc.py": TESTS,
                 "scripts/test.sh": f"{PY} -m calc.cli && " + RUN})
    protect(repo, paths=["tests/**"], command=["bash", "scripts/test.sh"])
    commit_all_ok(repo, "a package with a smoke step")
    tid = h.ok("task", "new", "Break the package").out.strip()
    write(repo, {"calc/core.py": BUGGY})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "calc/core.py" not in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def test_a_runner_script_started_with_interpreter_options_is_protected(h, repo):
    # Read 129's F-0458: only three words before a script were looked at for an interpreter.
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "scripts/run_tests.py": _runner("junitfix"),
                 "scripts/junitfix.py": FIX, "scripts/test.sh": f"{PY} -X dev -W ignore -B scripts/run_tests.py\n"})
    protect(repo, paths=["tests/**"], command=["bash", "scripts/test.sh"])
    commit_all_ok(repo, "a runner started with options")
    tid = h.ok("task", "new", "Through the options").out.strip()
    write(repo, {"calc.py": BUGGY, "scripts/run_tests.py": _runner("junitfix").replace("import junitfix\n",
                                                                                       "import junitfix, re\n")
                 + "t = open('.harness/local/junit.xml').read()\nopen('.harness/local/junit.xml', 'w').write(re.sub("
                   "r'<(failure|error)[^>]*>.*?</(failure|error)>', '', t, flags=re.S))\n"})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "scripts/run_tests.py" in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def test_a_script_a_runner_script_starts_by_its_path_is_protected(h, repo):
    # Read 130's F-0460: only a runner script's imports were followed, not a script it runs as a process.
    runner = ("import subprocess, sys\nsubprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', "
              "'--junitxml=.harness/local/junit.xml'])\nsubprocess.run([sys.executable, 'scripts/post.py'])\n")
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "scripts/run_tests.py": runner,
                 "scripts/post.py": "pass\n"})
    protect(repo, paths=["tests/**"], command=[PY, "scripts/run_tests.py"])
    commit_all_ok(repo, "a runner that runs a second script")
    tid = h.ok("task", "new", "Through the second script").out.strip()
    write(repo, {"calc.py": BUGGY, "scripts/post.py": LAUNDERING + "\nfix('.harness/local/junit.xml')\n"})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "scripts/post.py" in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def test_code_under_test_a_configured_command_names_stays_the_changes(h, repo):
    # Read 130's F-0461: a configured smoke step (`python calc.py`) made calc.py protected, though the tests import it.
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo, paths=["tests/**"])
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence:\n", f"evidence:\n  custom.smoke:\n    command: [{PY!r}, calc.py]\n", 1))
    commit_all_ok(repo, "a smoke step in config.yaml")
    tid = h.ok("task", "new", "Break calc").out.strip()
    write(repo, {"calc.py": BUGGY})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "calc.py" not in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def test_a_module_the_tests_run_with_dash_m_stays_the_changes(h, repo):
    # Read 130's F-0462: the tests run calc.cli as a process (`-m calc.cli`), and a runner's smoke step does too.
    tests = TESTS + ("\n\ndef test_cli():\n    import subprocess, sys\n    out = subprocess.run([sys.executable, '-m', "
                     "'calc.cli'], capture_output=True, text=True).stdout\n    assert out == '6\\n'\n")
    write(repo, {"calc/__init__.py": "", "calc/core.py": CALC, "calc/cli.py": "print(2 * 3)\n",
                 "tests/test_calc.py": tests.replace("from calc import add, mul", "from calc.core import add, mul"),
                 "scripts/test.sh": f"{PY} -m calc.cli && " + RUN})
    protect(repo, paths=["tests/**"], command=["bash", "scripts/test.sh"])
    commit_all_ok(repo, "a cli the tests run")
    tid = h.ok("task", "new", "Break the cli").out.strip()
    write(repo, {"calc/cli.py": "print(2 + 3)\n"})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "calc/cli.py" not in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_cli"] == "failed"


def test_a_script_a_shell_test_command_runs_is_protected(h, repo):
    # Read 131's F-0465: a command run through a shell is one string, which named no file: its words are a runner's.
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "scripts/post.py": "pass\n"})
    protect(repo, paths=["tests/**"])
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"]["unit_test"].update(command=f"{RUN.strip()} ; {PY} scripts/post.py", shell=True)
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    commit_all_ok(repo, "a shell test command")
    tid = h.ok("task", "new", "Through the shell").out.strip()
    write(repo, {"calc.py": BUGGY, "scripts/post.py": LAUNDERING + "\nfix('.harness/local/junit.xml')\n"})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "scripts/post.py" in rec["pass_to_pass"]["protected_changed"]
    assert lost(rec)["tests.test_calc::test_mul"] == "failed"


def _through_path(h, repo, monkeypatch, folder: str, runner: str) -> str:
    """A project whose test command starts `pytest` by name, committed, a task on it, and ``folder`` of the checkout
    (holding ``runner`` as its `pytest`) first on PATH."""
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, f"{folder}/pytest": runner})
    os.chmod(repo / folder / "pytest", 0o755)
    protect(repo, paths=["tests/**"], command=["pytest", "-q", "-p", "no:cacheprovider",
                                               "--junitxml=.harness/local/junit.xml"])
    commit_all_ok(repo, "tests run by pytest")
    monkeypatch.setenv("PATH", f"{repo / folder}{os.pathsep}{os.environ['PATH']}")
    return h.ok("task", "new", "Through PATH").out.strip()


@pytest.mark.parametrize("etype", ["pass_to_pass", "fail_to_pass"])
def test_a_runner_found_on_path_in_the_checkout_is_refused_as_unit_test_refuses_it(h, repo, monkeypatch, etype):
    # F-0471: the run is in a temporary worktree, and only a PATH entry inside it was refused: the checkout's own
    # bin/pytest, a file of the change, ran the base's tests (and could read every failure as passed).
    tid = _through_path(h, repo, monkeypatch, "bin", f"#!/bin/sh\nexec {PY} -m pytest \"$@\"\n")
    write(repo, {"calc.py": BUGGY})
    r = h("evidence", etype)
    assert r.code == 1 and "`pytest` is found on PATH at bin/pytest, a file of the source tree" in r.err, r.text
    assert not (tdir(repo, tid) / f"evidence/{etype}.json").exists()


@pytest.mark.parametrize("wrapper", [["timeout", "900"], ["env"], ["nice", "-n", "5"], ["uv", "run"]],
                         ids=lambda w: w[0])
def test_a_runner_on_path_in_the_checkout_that_a_wrapper_starts_is_refused(h, repo, monkeypatch, wrapper):
    # Read 136's F-0486: only the command's first word was looked up; `timeout 900 pytest` started the checkout's own.
    tid = _through_path(h, repo, monkeypatch, "bin", f"#!/bin/sh\nexec {PY} -m pytest \"$@\"\n")
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"]["unit_test"]["command"] = [*wrapper, *doc["evidence"]["unit_test"]["command"]]
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    for etype in ("unit_test", "pass_to_pass"):
        r = h("evidence", etype)
        assert r.code == 1 and "`pytest` is found on PATH at bin/pytest, a file of the source tree" in r.err, r.text
    assert not (tdir(repo, tid) / "evidence/pass_to_pass.json").exists()


def test_a_runner_on_path_in_a_folder_git_ignores_is_no_source_and_runs(h, repo, monkeypatch):
    # F-0471's other side: a virtualenv kept inside the checkout (ignored) is where many users' pytest lives.
    write(repo, {".gitignore": "venv/\n"})
    tid = _through_path(h, repo, monkeypatch, "venv/bin", f"#!/bin/sh\nexec {PY} -m pytest \"$@\"\n")
    code, rec = p2p(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["base_passed"] > 0


def test_the_tests_name_a_file_by_its_whole_name():
    # Read 131's F-0466: "conftest.py" in a test's text made every `test.py` code under test, so a runner of that name
    # was left unprotected.
    from harness.core.runner_texts import TreeFiles
    from harness.evidence.pass_to_pass import _Tested

    texts = {"tests/conftest.py": '"""Fixtures (conftest.py)."""\n', "tests/test_a.py": "# runs tools/run.py\n"}
    tested = _Tested(lambda rel: texts[rel].encode() if rel in texts else None, sorted(texts),
                     TreeFiles(["scripts/test.py", "tools/run.py", *texts]), [])
    assert not tested.reaches("scripts/test.py") and tested.reaches("tools/run.py")
    assert tested.reaches("tests/conftest.py")


def test_the_runners_files_are_read_by_id_each_once(h, repo):
    # Read 131's F-0467: each file was looked up from the commit's root by path (a walk per file, quadratic in a large
    # folder); it is read by the id the base's listing gives, once.
    from harness.evidence import pass_to_pass
    from harness.gitio.git import Git

    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "scripts/test.sh": f"{PY} scripts/run.py\n",
                 "scripts/run.py": "import calc\n"})
    base = commit_all_ok(repo, "a runner script")
    git = Git(repo)
    reads: list[str] = []
    git.read_at = lambda *_: pytest.fail("a file looked up by path")  # type: ignore[method-assign]
    blob_bytes = git.blob_bytes
    git.blob_bytes = lambda oid: reads.append(oid) or blob_bytes(oid)  # type: ignore[method-assign]
    files = git.files_of(git.source_tree(base))
    out = pass_to_pass.run_by_runners(git, base, {"scripts/test.sh"}, set(files), [], ["tests/test_calc.py"])
    assert out == {"scripts/test.sh", "scripts/run.py"} and len(reads) == len(set(reads))


def test_a_module_the_test_command_collects_for_its_doctests_stays_the_changes(h, repo):
    # Read 132's F-0470: `pytest --doctest-modules calc.py tests` named calc.py, which the tests never import: it was
    # protected as a script, so the change's broken add() and its rewritten example were never measured.
    doc = 'def add(a, b):\n    """\n    >>> add(2, 3)\n    5\n    """\n    return a + b\n'
    write(repo, {"calc.py": doc, "tests/test_other.py": "def test_nothing():\n    pass\n"})
    protect(repo, paths=["tests/**"], command=[PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
                                               "calc.py", "tests", "--junitxml=.harness/local/junit.xml"])
    commit_all_ok(repo, "a doctest module the command names")
    tid = h.ok("task", "new", "Break add").out.strip()
    write(repo, {"calc.py": doc.replace("    5\n", "    -1\n").replace("a + b", "a - b")})
    h("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and "calc::calc.add" in lost(rec), rec["pass_to_pass"]


# -- the honest paths ------------------------------------------------------------------------------

def test_a_new_test_and_a_correct_change_pass(h, repo, base):
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"),
                 "tests/test_calc.py": TESTS + "\n\ndef test_mul_zero():\n    assert mul(0, 7) == 0\n"})
    code, rec = p2p(h, repo, base)
    assert code == 0 and rec["pass_to_pass"]["lost"] == [] and rec["pass_to_pass"]["base_passed"] == 4
    assert rec["pass_to_pass"]["protected_changed"] == ["tests/test_calc.py"]
    assert rec["pass_to_pass"]["reused_run"] is None  # a protected file changed: it ran with the base's


def test_a_rename_that_keeps_the_case_id_passes(h, repo, base):
    # The test body is reorganised, its id (module and name) is kept: nothing is lost.
    write(repo, {"tests/test_calc.py": TESTS.replace("assert mul(2, 3) == 6", "got = mul(2, 3)\n    assert got == 6")})
    assert p2p(h, repo, base)[0] == 0


def test_a_change_touching_no_protected_file_reuses_the_test_run(h, repo, base, monkeypatch):
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"), **NO_CACHES})
    h.ok("evidence", "unit_test")
    unit = record(repo, base, "unit_test")
    code, rec = p2p(h, repo, base)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] == unit["run_id"]
    assert rec["tree"] == unit["tree"] and rec["cases_digest"] == unit["cases_digest"]
    assert rec["started_at"] == unit["started_at"]  # no second run: the test run's own times


def test_without_a_fresh_test_run_an_untouched_suite_is_run_once(h, repo, base):
    write(repo, {"calc.py": BUGGY})  # no unit_test evidence on this tree to reuse
    code, rec = p2p(h, repo, base)
    assert code == 1 and rec["pass_to_pass"]["reused_run"] is None and rec["pass_to_pass"]["protected_changed"] == []


def kept_result(repo: Path) -> Path:
    from harness.evidence.pass_to_pass import kept_results
    from harness.gitio.git import Git

    git = Git(repo)
    return kept_results(git, git.head() or "")


def test_the_base_run_is_kept_for_the_user_and_not_repeated(h, repo, base):
    from harness.evidence.pass_to_pass import kept_file, kept_for
    from harness.gitio.git import Git
    from harness.runner import clean_env
    from harness.store import settings
    from harness.store.layout import Layout

    h("evidence", "pass_to_pass")
    # kept for this program and environment (read 110's F-0389): the file the next run of this process reads
    git, conf = Git(repo), settings.load_config(Layout(repo)).commands["unit_test"]
    kept = kept_file(git, base_commit(repo, base), conf, kept_for(git, base_commit(repo, base), conf, repo, clean_env()))
    assert kept is not None and "passed\ttests.test_calc::test_mul\n" in kept.read_text()
    before = kept.stat().st_mtime_ns
    write(repo, {"calc.py": BUGGY})
    assert set(lost(p2p(h, repo, base)[1])) == set(CHANGED)
    assert kept.stat().st_mtime_ns == before  # read, not measured again


# -- the gate --------------------------------------------------------------------------------------

def test_the_gate_requires_pass_to_pass_and_names_it(h, repo, base):
    from support.cli import gate_json

    write(repo, {"calc.py": BUGGY, "tests/test_calc.py": TESTS.replace("== 6", "== 5").replace("(2, 5, 10)", "(2, 5, 7)")})
    h.ok("evidence", "unit_test")
    h("evidence", "pass_to_pass")
    _code, report = gate_json(h)
    assert any(b.startswith("pass_to_pass evidence failed") for b in report["blockers"]), report["blockers"]


def test_a_pass_to_pass_record_counts_only_for_the_suite_it_measured(h, repo, base):
    from support.cli import gate_json

    assert p2p(h, repo, base)[0] == 0
    gate = repo / ".harness/gate.yaml"
    doc = yaml.safe_load(gate.read_text())
    doc["gate"]["suite"]["paths"].append("calc.py")  # tightened after the run
    gate.write_text(yaml.safe_dump(doc, sort_keys=False))
    _code, report = gate_json(h)
    assert any(b.startswith("pass_to_pass evidence does not count") for b in report["blockers"]), report["blockers"]


@pytest.mark.parametrize("args", [("--", "true"), ("--timeout", "5"), ("--shell",)])
def test_pass_to_pass_takes_no_command_of_its_own(h, repo, base, args):
    r = h("evidence", "pass_to_pass", *args)
    assert r.code == 2 and "runs the configured test command itself" in r.err


def test_without_a_suite_section_it_is_refused_with_the_remedy(h, repo, task):
    r = h("evidence", "pass_to_pass")
    assert r.code == 1 and "no `suite:` section" in r.err and "tightens the gate" in r.err


def test_without_a_junit_report_it_is_refused_with_the_remedy(h, repo, base):
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    del doc["evidence"]["unit_test"]["junit"]
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    r = h("evidence", "pass_to_pass")
    assert r.code == 1 and "names no `junit:` report" in r.err


def test_config_yaml_cannot_name_a_command_for_pass_to_pass(h, repo, task):
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"] = {"pass_to_pass": {"command": ["true"]}}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    r = h("status")
    assert r.code == 2 and "the harness runs pass_to_pass itself" in r.err


def test_the_runs_import_the_tree_they_measure(h, repo, base):
    write(repo, {"tests/test_calc.py": TESTS + "\n\ndef test_new():\n    assert mul(0, 1) == 0\n"})
    rec = p2p(h, repo, base)[1]
    # first on PYTHONPATH: the worktree, so an editable install cannot import the checkout's code instead
    assert "harness-rerun-" in rec["env"]["PYTHONPATH"].split(":")[0]


# -- CI's re-run measures it again -----------------------------------------------------------------

def _commit_and_remeasure(repo: Path, tid: str) -> tuple[str | None, list]:
    from harness.evidence.pass_to_pass import remeasure
    from harness.gitio.git import Git
    from harness.store import settings
    from harness.store.layout import Layout

    sha = commit_all_ok(repo, "the change")
    layout = Layout(repo)
    return remeasure(Git(repo), sha, base_commit(repo, tid), settings.load_gate(layout).suite,
                     settings.load_config(layout), dict(__import__("os").environ), set())


def test_ci_remeasures_a_tampered_commit_and_finds_the_lost_cases(h, repo, base):
    write(repo, {"calc.py": BUGGY, "tests/test_calc.py": TESTS.replace("== 6", "== 5").replace("(2, 5, 10)", "(2, 5, 7)")})
    outcome, lost_now = _commit_and_remeasure(repo, base)
    assert outcome == "failed" and {c for c, _ in lost_now} == {"tests.test_calc::test_mul",
                                                                 "tests.test_calc::test_mul_cases[2-5-10]"}


def test_ci_remeasures_an_honest_commit_as_passing(h, repo, base):
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"),
                 "tests/test_calc.py": TESTS + "\n\ndef test_new():\n    assert mul(0, 1) == 0\n"})
    assert _commit_and_remeasure(repo, base) == ("passed", [])


def test_ci_re_run_judges_the_junit_report_as_the_gate_does(tmp_path):
    from harness.history.rerun.execute import _judged_by_report
    from harness.runner import run_command

    report = tmp_path / "r.xml"
    ok = run_command([PY, "-c", "pass"], echo=False)
    report.write_text('<testsuite><testcase classname="t" name="a"><failure/></testcase></testsuite>')
    assert _judged_by_report(ok, report, [], tmp_path)[0].outcome == "failed"  # exit 0, but the report lists a failure
    assert _judged_by_report(ok, tmp_path / "absent.xml", [], tmp_path)[0].outcome == "failed"
    report.write_text('<testsuite><testcase classname="t" name="a"/></testsuite>')
    assert _judged_by_report(ok, report, [], tmp_path)[0].outcome == "passed"
    assert _judged_by_report(ok, None, [], tmp_path)[0].outcome == "passed"  # no report configured: the exit decides


# -- the base --------------------------------------------------------------------------------------

def test_a_task_on_a_feature_branch_is_measured_from_where_it_left_the_protected_branch(h, repo):
    from support.gitrepo import git, head

    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    fork = commit_all_ok(repo, "calc with tests")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, {"calc.py": CALC + "\n\ndef sub(a, b):\n    return a - b\n"})
    commit_all_ok(repo, "earlier work on the branch")
    git(repo, "checkout", "-q", "main")
    write(repo, {"README.md": "main moved on\n"})
    commit_all_ok(repo, "main moves on")
    git(repo, "checkout", "-q", "feature")
    tid = h.ok("task", "new", "On the branch").out.strip()
    assert base_commit(repo, tid) == fork != head(repo)


def test_on_the_protected_branch_itself_the_base_is_where_the_task_started(h, repo, base):
    from support.gitrepo import head

    assert base_commit(repo, base) == head(repo)


@pytest.mark.parametrize("remote", ["origin", "upstream"])
def test_the_remotes_main_is_the_base_where_the_remote_names_no_default_branch(h, repo, tmp_path, remote):
    # Read 126's F-0449: a clone set up by `git remote add` and `git push` has origin/main and no origin/HEAD; the
    # base was taken from the local main, which a plain commit of the agent's (a weakened test) moves.
    from support.gitrepo import git, head

    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    published = commit_all_ok(repo, "calc with tests")
    git(tmp_path, "init", "-q", "--bare", "remote.git")
    git(repo, "remote", "add", remote, str(tmp_path / "remote.git"))
    git(repo, "push", "-q", "--no-verify", remote, "main")
    write(repo, {"tests/test_calc.py": TESTS.replace("== 6", "!= 6")})
    commit_all_ok(repo, "a weakened test, committed on the local main")
    tid = h.ok("task", "new", "After the weakening").out.strip()
    assert base_commit(repo, tid) == published != head(repo)


# -- a change of spec is a human decision ------------------------------------------------------------







def test_an_approved_change_of_spec_passes_excusing_exactly_the_cases_named(h, repo, approver):
    tid, key = approver
    write(repo, SPEC_CHANGE)
    sign_suite_change(repo, tid, CHANGED, key)
    code, rec = p2p(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["excused"] == CHANGED and rec["pass_to_pass"]["lost"] == []


def test_an_approval_excuses_no_case_it_does_not_name(h, repo, approver):
    tid, key = approver
    write(repo, SPEC_CHANGE)
    sign_suite_change(repo, tid, CHANGED[:1], key)
    code, rec = p2p(h, repo, tid)
    assert code == 1 and set(lost(rec)) == set(CHANGED[1:]) and rec["pass_to_pass"]["excused"] == CHANGED[:1]


@pytest.mark.parametrize("how", ["unsigned", "another base", "edited after signing"])
def test_an_approval_that_does_not_bind_here_excuses_nothing(h, repo, approver, how):
    tid, key = approver
    write(repo, SPEC_CHANGE)
    sign_suite_change(repo, tid, CHANGED, None if how == "unsigned" else key,
                      base="f" * 40 if how == "another base" else None)
    if how == "edited after signing":  # one more case slipped into a signed record
        path = repo / ".harness/approvals.jsonl"
        entry = json.loads(path.read_text())
        entry["changes"] = [*CHANGED, "tests.test_calc::test_add"]
        path.write_text(json.dumps(entry) + "\n")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and set(lost(rec)) == set(CHANGED) and rec["pass_to_pass"]["excused"] == []


def test_approve_suite_change_at_a_terminal_records_an_approval_that_counts(h, repo, approver):
    from support.processes import run_in_pty

    tid, _key = approver
    code, screen = run_in_pty(repo, ["approve", "suite-change", *CHANGED], "approve")
    assert code == 0, screen
    assert all(case in screen for case in CHANGED)
    entry = json.loads((repo / ".harness/approvals.jsonl").read_text().splitlines()[-1])
    assert entry["kind"] == "suite-change" and entry["changes"] == sorted(CHANGED)
    write(repo, SPEC_CHANGE)
    assert p2p(h, repo, tid)[0] == 0


def test_the_callers_environment_cannot_deselect_a_base_case(h, repo, base, monkeypatch):
    # PYTEST_ADDOPTS set while the base's cases are first computed would also poison the kept result.
    monkeypatch.setenv("PYTEST_ADDOPTS", "-k 'not mul'")
    write(repo, {"calc.py": BUGGY, "tests/test_calc.py": TESTS + "\n"})
    code, rec = p2p(h, repo, base)
    assert code == 1 and set(lost(rec)) == set(CHANGED)
    # the run's own environment is recorded: only the words that make it run every case (F-0341)
    assert rec["env"]["PYTEST_ADDOPTS"] == "--maxfail=0 -p no:stepwiseplugin"


def test_a_test_record_written_by_hand_is_no_run_to_reuse(h, repo, base):
    write(repo, {"calc.py": BUGGY})
    h("evidence", "unit_test")  # fails: the bug
    folder = tdir(repo, base) / "evidence"
    rec = json.loads((folder / "unit_test.json").read_text())
    listing = (folder / "unit_test.cases").read_text().replace("failed\t", "passed\t")
    (folder / "unit_test.cases").write_text(listing)
    import hashlib

    rec["cases_digest"] = hashlib.sha256(listing.encode()).hexdigest()
    (folder / "unit_test.json").write_text(json.dumps(rec))
    r = h("evidence", "pass_to_pass")
    assert r.code == 2 and "digest differs from its evidence.collected event" in r.err, r.err


# -- found by an adversarial review (findings F-0001, F-0004, F-0008, F-0009 of TASK-20261203-1dafdf) --

ALLPASS = ALLPASS_PLUGIN


def test_a_root_sitecustomize_cannot_rewrite_the_overlay_run(h, repo, base):
    write(repo, {"calc.py": BUGGY, **ALLPASS, "sitecustomize.py": "import os\nos.environ['PYTEST_ADDOPTS'] = '-p allpass'\n",
                 "tests/test_calc.py": TESTS.replace("== 6", "== 5").replace("(2, 5, 10)", "(2, 5, 7)")})
    code, rec = p2p(h, repo, base)
    assert code == 1 and set(lost(rec)) == set(CHANGED)
    assert "sitecustomize.py" in rec["pass_to_pass"]["protected_changed"]


def test_a_suite_file_git_ignores_in_the_checkout_prevents_reusing_the_test_run(h, repo, base):
    write(repo, {"calc.py": BUGGY, **ALLPASS, "tests/conftest.py": "pytest_plugins = ['allpass']\n"})
    (repo / ".git/info/exclude").write_text("tests/conftest.py\nallpass.py\n")
    assert h("evidence", "unit_test").code == 0  # the ignored conftest passes everything here
    code, rec = p2p(h, repo, base)
    assert code == 1 and rec["pass_to_pass"]["reused_run"] is None and set(lost(rec)) == set(CHANGED)


def _forge_test_bytecode(repo: Path) -> None:
    """A rewritten-test cache for tests/test_calc.py whose tests (the same ids) all pass: its header holds the
    source's hash, so pytest loads it instead of rewriting the file."""
    import importlib.util
    import marshal

    import _pytest.assertion.rewrite as rewrite

    src = (repo / "tests/test_calc.py").resolve()
    pyc = src.parent / "__pycache__" / (src.name[:-3] + rewrite.PYC_TAIL)
    pyc.parent.mkdir(exist_ok=True)
    body = "import pytest\n\n\ndef test_add():\n    pass\n\n\ndef test_mul():\n    pass\n\n\n" \
           "@pytest.mark.parametrize('a, b, want', [(1, 1, 1), (2, 5, 10)])\ndef test_mul_cases(a, b, want):\n    pass\n"
    code = compile(body, str(src), "exec")
    pyc.write_bytes(importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00" + importlib.util.source_hash(src.read_bytes())[:8]
                    + marshal.dumps(code))


# What a developer's plain login shell holds beside what PASS_TO_PASS's clean run keeps (runner.KEPT_ENV): the
# shell's and the session's own bookkeeping.
def test_a_forged_bytecode_cache_of_a_test_shapes_no_run_pass_to_pass_reuses(h, repo, base, monkeypatch):
    # Read 67's F-0229: PASS_TO_PASS reused a unit_test run that loaded a forged tests/__pycache__ file.
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": BUGGY, ".gitignore": "__pycache__/\n"})
    _forge_test_bytecode(repo)
    h("evidence", "unit_test")  # clears the suite's caches first: the forged one is not what it runs
    _forge_test_bytecode(repo)  # planted again after the run: older than no run it could shape, but not reusable
    code, rec = p2p(h, repo, base)
    assert code == 1 and "tests.test_calc::test_mul" in lost(rec)


def _forge_code_bytecode(repo: Path, rel: str = "calc.py", good: str = CALC) -> None:
    """A cache of ``rel`` holding the correct code ``good``, its header the broken source's hash."""
    import importlib.util
    import marshal

    src = (repo / rel).resolve()
    pyc = Path(importlib.util.cache_from_source(str(src)))
    pyc.parent.mkdir(exist_ok=True)
    pyc.write_bytes(importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00" + importlib.util.source_hash(src.read_bytes())[:8]
                    + marshal.dumps(compile(good, str(src), "exec")))


def test_a_forged_bytecode_cache_of_the_code_shapes_no_run_pass_to_pass_reuses(h, repo, base, monkeypatch):
    # Read 71's F-0241: only the caches of protected modules were cleared and checked.
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": BUGGY, ".gitignore": "__pycache__/\n"})
    _forge_code_bytecode(repo)
    h("evidence", "unit_test")
    _forge_code_bytecode(repo)
    code, rec = p2p(h, repo, base)
    assert code == 1 and "tests.test_calc::test_mul" in lost(rec)


def test_a_worktree_run_reads_no_bytecode_cache_the_tree_holds(tmp_path):
    # Read 71's F-0242: a cache committed with `git add -f` was read in PASS_TO_PASS's worktree.
    from harness.evidence.pass_to_pass import without_caches

    for rel in ("__pycache__/conftest.cpython-311-pytest-9.2.0.pyc", "pkg/__pycache__/calc.cpython-311.pyc"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"forged")
    (tmp_path / "pkg/calc.py").write_text("X = 1\n")
    assert without_caches(tmp_path) == tmp_path
    assert not list(tmp_path.rglob("*.pyc")) and (tmp_path / "pkg/calc.py").exists()


def test_ignored_metadata_stops_reuse_only_when_it_names_a_pytest_plugin(h, repo, base, monkeypatch):
    # Read 71's F-0244: an editable install's git-ignored src/x.egg-info stopped every reuse.
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": CALC.replace("a * b", "b * a"), ".gitignore": "*.egg-info/\n__pycache__/\n",
                 "src/calc.egg-info/PKG-INFO": "Name: calc\n", "src/calc.egg-info/entry_points.txt": "[console_scripts]\n"})
    assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, base)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] is not None
    write(repo, {"src/calc.egg-info/entry_points.txt": "[pytest11]\nallpass = allpass\n"})
    assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, base)
    assert rec["pass_to_pass"]["reused_run"] is None


def test_an_honest_test_run_with_its_own_bytecode_caches_is_reused(h, repo, base, monkeypatch):
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # as a user has it: the run writes its caches
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": CALC.replace("a * b", "b * a"), ".gitignore": "__pycache__/\n"})
    assert h("evidence", "unit_test").code == 0
    assert list((repo / "tests").glob("__pycache__/*.pyc"))  # the run wrote its caches
    code, rec = p2p(h, repo, base)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] is not None


@pytest.mark.parametrize(("name", "value"), [("PYTEST_ADDOPTS", "-k 'not mul'"),
                                             ("PYTHONPYCACHEPREFIX", "/tmp/caches-someone-filled")])  # F-0229
def test_a_test_run_under_a_bent_environment_is_not_reused(h, repo, base, monkeypatch, name, value):
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": BUGGY if name == "PYTEST_ADDOPTS" else CALC.replace("a * b", "b * a")})
    monkeypatch.setenv(name, value)
    assert h("evidence", "unit_test").code == 0
    monkeypatch.delenv(name)
    code, rec = p2p(h, repo, base)
    assert code == (1 if name == "PYTEST_ADDOPTS" else 0) and rec["pass_to_pass"]["reused_run"] is None


def test_the_base_result_is_kept_outside_the_repository(h, repo, base):
    import pwd

    h("evidence", "pass_to_pass")
    assert not (repo / ".harness/local/pass_to_pass").exists()
    folder = kept_result(repo)
    assert folder.is_relative_to(pwd.getpwuid(__import__("os").getuid()).pw_dir) and list(folder.glob("*.cases"))


def test_a_task_started_while_another_is_open_keeps_the_older_base(h, repo, base):
    from support.gitrepo import git

    write(repo, {"calc.py": BUGGY, "tests/test_calc.py": TESTS.replace("== 6", "== 5").replace("(2, 5, 10)", "(2, 5, 7)")})
    git(repo, "commit", "-qam", "wip: tampering committed on main")
    again = h.ok("task", "new", "Again").out.strip()
    assert base_commit(repo, again) == base_commit(repo, base)
    h("evidence", "unit_test")
    assert p2p(h, repo, again)[0] == 1


# -- read 110: the run PASS_TO_PASS reuses is one its record shows clean (F-0390, F-0391, F-0393) ---------------

def _base_with(h, repo: Path, files: dict[str, str]) -> str:
    """``base``'s project with ``files`` in its base commit too; a task started on it."""
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, **files})
    protect(repo)
    commit_all_ok(repo, "calc with tests")
    return h.ok("task", "new", "Make mul faster").out.strip()


# Written in the folder above the repository (the agent's workspace): a conftest.py that passes every failure,
# keeping the repository's node ids although the folder above is the rootdir.
ABOVE = {"pytest.ini": "[pytest]\n", "conftest.py": """\
    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        rep = (yield).get_result()
        rep.nodeid = rep.nodeid.split("/", 1)[1]
        if rep.failed:
            rep.outcome, rep.longrepr = "passed", None
    """}


def test_a_pytest_configuration_above_the_repository_shapes_no_run_pass_to_pass_reuses(h, repo, base, monkeypatch):
    # Read 110's F-0390: the root holds no pytest configuration, so the checkout's run read ../pytest.ini and loaded
    # ../conftest.py; PASS_TO_PASS's worktree ends pytest's search at its root, and the reused run did not.
    as_a_developer_runs(monkeypatch)
    write(repo.parent, ABOVE)
    write(repo, {"calc.py": BUGGY, **NO_CACHES})
    assert h("evidence", "unit_test").code == 0  # the conftest.py above passes every failure
    code, rec = p2p(h, repo, base)
    assert code == 1 and rec["pass_to_pass"]["reused_run"] is None and set(lost(rec)) == set(CHANGED)


@pytest.mark.parametrize("config", [{"pytest.ini": "[pytest]\n"}, {"pyproject.toml": "[tool.pytest.ini_options]\n"}],
                         ids=["pytest.ini", "pyproject.toml"])
def test_a_run_whose_root_configuration_ends_pytest_s_search_is_reused_whatever_lies_above(h, repo, monkeypatch,
                                                                                             config):
    tid = _base_with(h, repo, config)
    as_a_developer_runs(monkeypatch)
    write(repo.parent, ABOVE)  # never read: pytest takes the root's configuration
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"), **NO_CACHES})
    assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] == record(repo, tid, "unit_test")["run_id"]


# A test whose check is an assertion helper's: pytest rewrites the asserts of test modules, not of tests/helpers.py,
# so PYTHONOPTIMIZE removes it; and a bug in mul(4, _) that only this test sees.
HELPED = {"tests/helpers.py": "def check_equal(got, want):\n    assert got == want, (got, want)\n",
          "tests/test_helped.py": "from calc import mul\nfrom helpers import check_equal\n\n\n"
                                  "def test_mul_helped():\n    check_equal(mul(4, 2), 8)\n"}


def test_a_test_run_bent_by_pythonoptimize_is_not_reused(h, repo, monkeypatch):
    # Read 110's F-0391: only PYTHONPATH, PYTEST_ADDOPTS, PYTEST_PLUGINS, NODE_OPTIONS, PYTHONPYCACHEPREFIX stopped reuse.
    tid = _base_with(h, repo, HELPED)
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": CALC.replace("return a * b", "return 0 if a == 4 else a * b"), **NO_CACHES})
    with monkeypatch.context() as bent:
        bent.setenv("PYTHONOPTIMIZE", "1")
        bent.setenv("PYTHONDONTWRITEBYTECODE", "1")
        assert h("evidence", "unit_test").code == 0  # the helper's assert is gone
    code, rec = p2p(h, repo, tid)
    assert code == 1 and rec["pass_to_pass"]["reused_run"] is None
    assert set(lost(rec)) == {"tests.test_helped::test_mul_helped"}


@pytest.mark.parametrize(("name", "value"), [("PYTHONWARNINGS", "ignore"), ("BASH_ENV", "/dev/null"), ("LD_PRELOAD", ""),
                                             ("COV_CORE_SOURCE", "calc"), ("PYTEST_DEBUG_TEMPROOT", "/tmp"),
                                             ("VIRTUAL_ENV", "/elsewhere/.venv"), ("CALC_LENIENT", "1")])
def test_a_test_run_under_any_variable_the_clean_run_lacks_is_not_reused(h, repo, base, monkeypatch, name, value):
    # Read 110's F-0391: what a variable does is not known from its name (the code under test may read any), so only
    # those known to change nothing a test sees are let through.
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"), **NO_CACHES})
    with monkeypatch.context() as bent:
        bent.setenv(name, value)
        assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, base)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] is None
    unit = record(repo, base, "unit_test")
    assert unit["reusable"] is False and any(name in why for why in unit["not_reusable"]), unit["not_reusable"]


def test_a_test_run_in_a_plain_shell_with_its_virtualenv_activated_is_reused(h, repo, own_python_runs_the_tests, base,
                                                                             monkeypatch):
    # The virtualenv PATH chose already, whose interpreter the command runs: VIRTUAL_ENV changes nothing.
    as_a_developer_runs(monkeypatch, VIRTUAL_ENV=str(own_python_runs_the_tests), VIRTUAL_ENV_PROMPT="(.venv) ")
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"), **NO_CACHES})
    assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, base)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] == record(repo, base, "unit_test")["run_id"]


def test_an_ignored_suite_file_deleted_after_the_run_still_keeps_it_from_being_reused(h, repo, base, monkeypatch):
    # Read 110's F-0393: the ignored-file check looked at the checkout when PASS_TO_PASS ran, not as the run saw it.
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": BUGGY, **NO_CACHES, **ALLPASS, "tests/conftest.py": "pytest_plugins = ['allpass']\n"})
    (repo / ".git/info/exclude").write_text("tests/conftest.py\nallpass.py\n")
    assert h("evidence", "unit_test").code == 0  # the ignored conftest passes everything here
    write(repo, {"tests/conftest.py": None, "allpass.py": None})  # gone before PASS_TO_PASS looks
    code, rec = p2p(h, repo, base)
    assert code == 1 and rec["pass_to_pass"]["reused_run"] is None and set(lost(rec)) == set(CHANGED)



def test_an_ignored_package_in_place_of_a_tracked_module_shapes_no_run_pass_to_pass_reuses(h, repo, base, monkeypatch):
    # Read 115's F-0411: a git-ignored calc/__init__.py holding the old code shadowed the broken, tracked calc.py.
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": BUGGY, "calc/__init__.py": CALC, **NO_CACHES})
    (repo / ".git/info/exclude").write_text("calc/\n")
    assert h("evidence", "unit_test").code == 0  # it imported calc/, not calc.py
    unit = record(repo, base, "unit_test")
    assert unit["reusable"] is False and any("calc/__init__.py" in why for why in unit["not_reusable"]), unit
    code, rec = p2p(h, repo, base)
    assert code == 1 and rec["pass_to_pass"]["reused_run"] is None and set(lost(rec)) == set(CHANGED)


def test_an_ignored_generated_module_naming_no_tracked_one_leaves_the_run_reusable(h, repo, base, monkeypatch):
    # Read 115's F-0411's legitimate neighbour: a version file a build writes, git-ignored, beside the code.
    as_a_developer_runs(monkeypatch)
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"), "_version.py": "version = '1.0'\n",
                 "build/lib/calc.py": CALC, ".gitignore": "__pycache__/\n_version.py\nbuild/\n"})
    assert h("evidence", "unit_test").code == 0
    code, rec = p2p(h, repo, base)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] == record(repo, base, "unit_test")["run_id"]


# A tracked subpackage named like a build folder (mypkg/build/), with a test of its own at the base.
BUILD_SUBPACKAGE = {"mypkg/__init__.py": "", "mypkg/build/__init__.py": "",
                    "mypkg/build/ops.py": "def mul(a, b):\n    return a * b\n",
                    "tests/test_ops.py": "from mypkg.build.ops import mul\n\n\ndef test_mul2():\n    assert mul(3, 3) == 9\n"}


def test_a_forged_bytecode_cache_in_a_subpackage_named_build_shapes_no_run_pass_to_pass_reuses(h, repo, monkeypatch):
    # Read 115's F-0412: the caches of mypkg/build/ were neither cleared before the run nor checked after it.
    tid = _base_with(h, repo, BUILD_SUBPACKAGE)
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # as a user has it: the run writes its caches
    as_a_developer_runs(monkeypatch)
    write(repo, {"mypkg/build/ops.py": "def mul(a, b):\n    return b * a\n", **NO_CACHES})
    assert h("evidence", "unit_test").code == 0
    assert list((repo / "mypkg/build/__pycache__").glob("ops.*.pyc"))  # the run's own: reused
    code, rec = p2p(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] == record(repo, tid, "unit_test")["run_id"]
    write(repo, {"mypkg/build/ops.py": "def mul(a, b):\n    return a + b\n"})
    _forge_code_bytecode(repo, "mypkg/build/ops.py", BUILD_SUBPACKAGE["mypkg/build/ops.py"])
    h("evidence", "unit_test")  # clears the caches first: the forged one is not what it runs
    assert record(repo, tid, "unit_test")["outcome"] == "failed"
    _forge_code_bytecode(repo, "mypkg/build/ops.py", BUILD_SUBPACKAGE["mypkg/build/ops.py"])
    code, rec = p2p(h, repo, tid)
    assert code == 1 and set(lost(rec)) == {"tests.test_ops::test_mul2"}


# -- FAIL_TO_PASS: a requirement is proved by tests that fail without the change ----------------------



def requirement_with_tests(h, tid: str, *tests: str) -> None:
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         *[x for t in tests for x in ("--tests", t)])




def test_a_requirement_proved_by_a_new_test_that_fails_at_the_base_passes(h, repo, base):
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    requirement_with_tests(h, base, "tests.test_calc::test_sub")
    assert h("evidence", "fail_to_pass").code == 0
    assert record(repo, base, "fail_to_pass")["fail_to_pass"]["protected_changed"] == ["tests/test_calc.py"]
    assert f2p_blockers(h) == []
    assert "tests.test_calc::test_sub" in (tdir(repo, base) / "requirements.yaml").read_text()


def test_a_test_that_already_passed_before_the_change_proves_nothing(h, repo, base):
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    requirement_with_tests(h, base, "tests.test_calc::test_add")
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == ["REQ-001: test tests.test_calc::test_add passes without the change (fail_to_pass): "
                               "it does not prove the requirement"]


def test_a_named_test_that_does_not_pass_now_blocks(h, repo, base):
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    requirement_with_tests(h, base, "tests.test_calc::test_nothing_of_the_kind")
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == ["REQ-001: test tests.test_calc::test_nothing_of_the_kind did not pass in the cited run",
                               "REQ-001: test tests.test_calc::test_nothing_of_the_kind was not collected without the "
                               "change (fail_to_pass): name a test of the protected suite that fails there"]


def test_named_tests_without_fail_to_pass_evidence_block_naming_the_command(h, repo, base):
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    requirement_with_tests(h, base, "tests.test_calc::test_sub")
    assert f2p_blockers(h) == ["REQ-001 names test cases, but fail_to_pass evidence is missing: "
                               "harness evidence fail_to_pass"]


def test_must_have_tests_blocks_a_must_requirement_naming_none(h, repo, base):
    gate = repo / ".harness/gate.yaml"
    doc = yaml.safe_load(gate.read_text())
    doc["gate"]["requirements"]["must_have_tests"] = True
    gate.write_text(yaml.safe_dump(doc, sort_keys=False))
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    requirement_with_tests(h, base)
    assert f2p_blockers(h)[0].startswith("REQ-001 names no test case that proves it")


def test_turning_must_have_tests_off_is_a_loosening():
    from harness.core import policy

    base = yaml.safe_load((Path(__file__).parent.parent / "templates/gate.yaml").read_text())["gate"]
    on = {**base, "requirements": {**base["requirements"], "must_have_tests": True}}
    assert policy.loosenings(on, base) == ["requirements.must_have_tests turned off"]
    assert policy.loosenings(base, on) == []


@pytest.mark.parametrize("args", [("--", "true"), ("--shell",)])
def test_fail_to_pass_takes_no_command_of_its_own(h, repo, base, args):
    r = h("evidence", "fail_to_pass", *args)
    assert r.code == 2 and "runs the configured test command itself" in r.err


# -- found by a second adversarial review (F-0011..F-0021 of TASK-20261203-1dafdf) --------------------

def test_only_the_suites_test_command_can_prove_a_requirement(h, repo, base):
    proof = ('import sys\nopen(".harness/local/proof.xml", "w").write(\'<testsuite><testcase classname="tests.test_calc" '
             'name="test_sub"/></testsuite>\')\n')
    write(repo, {"calc.py": SUB.replace("a - b", "a + b"), "proof.py": proof})
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"]["custom.proof"] = {"command": [PY, "proof.py"], "junit": ".harness/local/proof.xml"}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "custom.proof")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.proof",
         "--tests", "tests.test_calc::test_sub")
    h.ok("evidence", "fail_to_pass")
    assert any("names test cases, but cites no run of the suite's test command" in b for b in f2p_blockers(h))


def test_a_test_fail_to_pass_never_collected_proves_nothing(h, repo, base):
    # A module pytest collects by its default names is protected wherever it stands (read 67's F-0227): one the
    # project's own `python_files` adds, outside suite.paths, is not, so the base's run never collects it.
    write(repo, {"calc.py": SUB, "pytest.ini": "[pytest]\npython_files = test_*.py check_*.py\n",
                 "check_sub_proof.py": "from calc import add\n\n\ndef test_proof():\n    assert add(1, 1) == 2\n"})
    requirement_with_tests(h, base, "check_sub_proof::test_proof")
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == ["REQ-001: test check_sub_proof::test_proof was not collected without the change "
                               "(fail_to_pass): name a test of the protected suite that fails there"]


def test_a_test_module_outside_the_suite_s_paths_is_protected_by_its_name(h, repo, base):
    # Read 67's F-0227: a root test_*.py was neither put back nor removed in PASS_TO_PASS's worktree; its
    # `pytest_plugins` loaded a plugin that passed every test.
    write(repo, {"calc.py": SUB, "test_sub_proof.py": "from calc import add\n\n\ndef test_proof():\n    assert add(1, 1) == 2\n"})
    requirement_with_tests(h, base, "test_sub_proof::test_proof")
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == ["REQ-001: test test_sub_proof::test_proof passes without the change (fail_to_pass): "
                               "it does not prove the requirement"]


def test_tests_that_cannot_run_on_the_base_prove_nothing_and_protect_nothing(h, repo, tmp_path):
    # calc imports a generated, git-ignored module: in a worktree every case errors.
    write(repo, {"calc.py": "from _version import V\n" + CALC, "_version.py": "V = 1\n", ".gitignore": "_version.py\n",
                 "tests/test_calc.py": TESTS})
    protect(repo)
    commit_all_ok(repo, "generated version")
    tid = h.ok("task", "new", "x").out.strip()
    r = h("evidence", "pass_to_pass")
    assert r.code == 2 and "no case passed (1 in the report) when the test command ran on the base" in r.err, r.err
    h.ok("evidence", "unit_test")
    assert h("evidence", "fail_to_pass").code == 1
    assert record(repo, tid, "fail_to_pass")["outcome"] == "failed"


def test_the_kept_base_result_ignores_a_cache_folder_the_environment_names(h, repo, base, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(repo / ".agentcache"))
    h("evidence", "pass_to_pass")
    assert not (repo / ".agentcache").exists()


def test_an_amended_base_does_not_re_anchor_a_new_task(h, repo, base):
    from support.gitrepo import git

    write(repo, {"tests/test_calc.py": TESTS.replace("def test_mul():\n    assert mul(2, 3) == 6\n", "")})
    git(repo, "commit", "-qa", "--amend", "--no-edit")
    again = h.ok("task", "new", "Again").out.strip()
    assert base_commit(repo, again) == base_commit(repo, base)


def test_case_ids_holding_the_worktree_path_are_compared_without_it(h, repo):
    data_test = ("import glob, os\n\nimport pytest\n\nHERE = os.path.dirname(__file__)\n\n\n"
                 "@pytest.mark.parametrize('path', sorted(glob.glob(os.path.join(HERE, 'data', '*.txt'))))\n"
                 "def test_data(path):\n    assert open(path).read() == 'ok'\n")
    write(repo, {"calc.py": CALC, "tests/test_data.py": data_test, "tests/data/a.txt": "ok"})
    protect(repo)
    commit_all_ok(repo, "data-driven")
    tid = h.ok("task", "new", "x").out.strip()
    write(repo, {"calc.py": CALC + "\n# a comment\n", "tests/test_data.py": data_test + "\n"})
    assert p2p(h, repo, tid)[0] == 0


@pytest.mark.parametrize("junit, required", [(None, False), (".harness/local/junit.xml", True)])
def test_init_requires_pass_to_pass_only_when_the_test_command_can_report_its_cases(repo, junit, required):
    from support.cli import cli

    write(repo, {"tests/test_calc.py": TESTS})
    (repo / ".harness").mkdir()
    unit = {"command": TEST_CMD, **({"junit": junit} if junit else {})}
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump({"version": 1, "evidence": {"unit_test": unit}}))
    r = cli(repo, "init")
    assert r.returncode == 0, r.stderr
    gate = yaml.safe_load((repo / ".harness/gate.yaml").read_text())["gate"]
    assert ("pass_to_pass" in gate["verification"]) is required and ("suite" in gate) is required
    assert required or "names no junit: report" in r.stdout


@pytest.mark.parametrize("recorded, contradicted", [("passed", True), ("failed", False)])
def test_ci_rerun_of_pass_to_pass_refuses_a_passing_record_the_commit_contradicts(h, repo, base, recorded, contradicted):
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.history.rerun.base_suite import execute_pass_to_pass
    from harness.history.rerun.execute import CONTRADICTED, REPRODUCES
    from harness.history.rerun.plan import Planned
    from harness.signatures.trust import Signers
    from harness.store import settings
    from harness.store.layout import Layout

    write(repo, SPEC_CHANGE)  # the bug, and the test rewritten to expect it
    sha = commit_all_ok(repo, "tampered")
    git, rows = Git(repo), []
    item = Planned(base, "pass_to_pass", "pass_to_pass", "rec", TEST_CMD, False, None, (recorded, None),
                   f"recorded pass_to_pass {recorded}", ".harness/local/junit.xml", base_commit(repo, base),
                   settings.load_gate(Layout(repo)).suite)
    row, problem = execute_pass_to_pass(git, TreeSource(git, git.commit_tree(sha), "commit"), item, sha, rows.append,
                                        signers=Signers())
    assert row["result"] == (CONTRADICTED if contradicted else REPRODUCES) and (problem is not None) is contradicted
    assert "tests.test_calc::test_mul (failed)" in row["lost"]
