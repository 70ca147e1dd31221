"""What the base's own files make pytest import or collect is the base's in PASS_TO_PASS (read 81): the modules a
conftest.py or test module names in `pytest_plugins` (F-0289), the module the project's `pytest11` entry point names and
a `-p` plugin in a src/ layout (F-0291), the test modules the configuration's `python_files` and `testpaths` name
(F-0292), and the doctest files pytest collects by default or by `--doctest-glob` (F-0293). Beside each refusal, the
honest change a careless guard would refuse."""

from __future__ import annotations

import pytest
import yaml

from harness.core import pytest_startup, suite

from support.gitrepo import commit_all_ok
from support.protected_project import BUGGY, CALC, SUB, TESTS, pass_to_pass_record, protect, write

# A plugin that turns every failure into a pass.
ALLPASS = """\
    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        outcome.get_result().outcome = "passed"
    """
FIXTURES = "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n"


def _based_on(h, repo, files: dict[str, str]) -> str:
    """A committed protected project (calc.py, ``files``, tests/test_calc.py unless ``files`` moves it) and a task on it."""
    write(repo, {"calc.py": CALC, **files})
    protect(repo)
    commit_all_ok(repo, "the base")
    return h.ok("task", "new", "Make mul faster").out.strip()


def _lost(rec: dict) -> set[str]:
    return {item["case"] for item in rec["pass_to_pass"]["lost"]}


# F-0289: `pytest_plugins` in a conftest.py or a test module.

@pytest.mark.parametrize(("text", "want"), [
    ('pytest_plugins = ["calc_fixtures", "pkg.more"]\n', ["calc_fixtures", "pkg.more"]),
    ("pytest_plugins = 'calc_fixtures'\n", ["calc_fixtures"]),
    ('pytest_plugins = ("support.plugin",)\n', ["support.plugin"]),
    ('pytest_plugins: list[str] = ["calc_fixtures"]\n', ["calc_fixtures"]),
    ("import os\n\nX = 1\n", []),
    ("def broken(:\n", []),  # pytest cannot import it either: the run stops there
], ids=["list", "string", "tuple", "annotated", "none", "unparsable"])
def test_pytest_plugins_literal_values_are_read(text, want):
    assert pytest_startup.plugins_named(text) == want


@pytest.mark.parametrize("text", [
    'pytest_plugins = ["calc_" + "fixtures"]\n',
    'pytest_plugins = [f"fixtures.{m}" for m in ("a", "b")]\n',
    'pytest_plugins = ["a"]\npytest_plugins += ["b"]\n',
    "from plugins import pytest_plugins\n",
    'globals()["pytest_plugins"] = ["allpass"]\n',
    'pytest_plugins = ["a"]\nif True:\n    pytest_plugins = ["allpass"]\n',
], ids=["concatenated", "comprehension", "augmented", "imported", "through_globals", "nested_rebinding"])
def test_pytest_plugins_that_is_no_literal_is_unknown(text):
    # Strict: a value only running the module would tell is not guessed (None: the adapter refuses, naming the file).
    assert pytest_startup.plugins_named(text) is None


def test_the_modules_the_base_s_pytest_plugins_name_are_protected(repo):
    # Through the adapter: the root conftest.py's, a test module's (beside it), a plugin's own (loaded in turn),
    # and a package in a src/ layout.
    from harness.evidence.pass_to_pass import _startup
    from harness.gitio.git import Git

    write(repo, {"conftest.py": 'pytest_plugins = ["calc_fixtures", "calcpkg.fixtures"]\n',
                 "calc_fixtures.py": 'pytest_plugins = "deeper"\n', "deeper.py": FIXTURES,
                 "src/calcpkg/__init__.py": "", "src/calcpkg/fixtures.py": FIXTURES,
                 "tests/test_calc.py": 'pytest_plugins = ["helpers_plugin"]\n' + TESTS, "tests/helpers_plugin.py": FIXTURES})
    commit_all_ok(repo, "plugins named by pytest_plugins")
    g = Git(repo)
    base = g.head()
    files = _startup(g, base, g.files_of(g.source_tree(base)), ["tests/**"])[0]
    assert {"calc_fixtures.py", "deeper.py", "src/calcpkg/fixtures.py", "tests/helpers_plugin.py"} <= set(files)
    assert "calc.py" not in files


def test_a_plugin_module_pytest_plugins_names_rewritten_to_pass_everything_fails_pass_to_pass(h, repo):
    tid = _based_on(h, repo, {"tests/test_calc.py": TESTS, "conftest.py": 'pytest_plugins = ["calc_fixtures"]\n',
                              "calc_fixtures.py": FIXTURES})
    write(repo, {"calc.py": BUGGY, "calc_fixtures.py": ALLPASS})
    assert h("evidence", "unit_test").code == 0  # the rewritten plugin passes everything here
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1 and "tests.test_calc::test_mul" in _lost(rec)
    assert "calc_fixtures.py" in rec["pass_to_pass"]["protected_changed"]


def test_an_honest_change_beside_pytest_plugins_passes_pass_to_pass(h, repo):
    tid = _based_on(h, repo, {"tests/test_calc.py": TESTS, "conftest.py": 'pytest_plugins = ["calc_fixtures"]\n',
                              "calc_fixtures.py": FIXTURES})
    write(repo, {"calc.py": SUB})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["protected_changed"] == []


def test_pytest_plugins_the_harness_cannot_read_refuses_pass_to_pass_naming_the_file(h, repo):
    _based_on(h, repo, {"tests/test_calc.py": TESTS, "conftest.py": 'pytest_plugins = ["calc_" + "fixtures"]\n',
                        "calc_fixtures.py": FIXTURES})
    write(repo, {"calc.py": BUGGY, "calc_fixtures.py": ALLPASS})
    r = h("evidence", "pass_to_pass")
    assert r.code != 0 and "conftest.py" in r.text and "pytest_plugins" in r.text


# F-0291: the project's own `pytest11` entry point, and `-p` in a src/ layout.

@pytest.mark.parametrize(("rel", "text"), [
    ("pyproject.toml", '[project]\nname = "calc"\n[project.entry-points.pytest11]\ncalc = "calc_plugin"\n'),
    ("pyproject.toml", '[project.entry-points."pytest11"]\ncalc = "calc_plugin:Plugin"\n'),
    ("pyproject.toml", '[tool.poetry.plugins."pytest11"]\ncalc = "calc_plugin"\n'),
    ("setup.cfg", "[options.entry_points]\npytest11 =\n    calc = calc_plugin\n"),
    ("setup.cfg", "[options.entry_points]\npytest11 = calc = calc_plugin:Plugin [extra]\n"),
], ids=["pyproject", "pyproject_object", "poetry", "setup_cfg", "setup_cfg_one_line"])
def test_the_pytest11_entry_point_module_of_the_project_is_a_plugin(rel, text):
    files, _folders = pytest_startup.startup({rel: text})
    assert "calc_plugin.py" in files and "src/calc_plugin.py" in files


def test_a_pytest11_entry_point_of_a_dotted_module_and_another_group_are_told_apart():
    text = ('[project.entry-points.pytest11]\ncalc = "calcpkg.plugin"\n'
            '[project.entry-points.console_scripts]\ncalc = "calcpkg.cli:main"\n')
    files, _folders = pytest_startup.startup({"pyproject.toml": text})
    assert "calcpkg/plugin.py" in files and "src/calcpkg/plugin.py" in files
    assert not any("cli" in f for f in files)  # a console script is no plugin


def test_a_p_plugin_in_a_src_layout_is_resolved_under_src():
    files, _folders = pytest_startup.startup({"pytest.ini": "[pytest]\naddopts = -p calcpkg.fixtures\n"})
    assert "src/calcpkg/fixtures.py" in files and "calcpkg/fixtures.py" in files


def test_the_pytest11_plugin_module_the_base_declares_is_put_back_in_pass_to_pass(h, repo):
    tid = _based_on(h, repo, {"tests/test_calc.py": TESTS, "calc_plugin.py": FIXTURES,
                              "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1"\n'
                                                '[project.entry-points.pytest11]\ncalc = "calc_plugin"\n'})
    write(repo, {"calc.py": BUGGY, "calc_plugin.py": ALLPASS + FIXTURES})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1 and "calc_plugin.py" in rec["pass_to_pass"]["protected_changed"]


def test_an_honest_change_in_a_pytest11_plugin_project_passes_pass_to_pass(h, repo):
    tid = _based_on(h, repo, {"tests/test_calc.py": TESTS, "calc_plugin.py": FIXTURES,
                              "pyproject.toml": '[project.entry-points.pytest11]\ncalc = "calc_plugin"\n'})
    write(repo, {"calc.py": SUB})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["protected_changed"] == []


# F-0292: the test modules the configuration's `python_files` names, under its `testpaths`.

CHECKS_INI = "[pytest]\ntestpaths = checks\npython_files = check_*.py\n"


@pytest.mark.parametrize(("configs", "want"), [
    ({"pytest.ini": CHECKS_INI}, ["checks/**/check_*.py"]),
    ({"pytest.ini": "[pytest]\npython_files = check_*.py *_checks.py\n"}, ["**/*_checks.py", "**/check_*.py"]),
    ({"pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["checks", "more"]\npython_files = ["check_*.py"]\n'},
     ["checks/**/check_*.py", "more/**/check_*.py"]),
    ({"pkg/tox.ini": "[pytest]\ntestpaths = checks\npython_files = check_*.py\n"}, ["pkg/checks/**/check_*.py"]),
    ({"pytest.ini": "[pytest]\ntestpaths = checks\n"}, []),  # the default names: protected anywhere already
], ids=["testpaths", "anywhere", "pyproject", "in_a_folder", "default_names"])
def test_python_files_under_testpaths_are_what_pytest_collects(configs, want):
    assert pytest_startup.collected(configs) == want


def test_python_files_naming_every_module_protects_no_code():
    # `python_files = *.py` would take in the code under test: PASS_TO_PASS would put the base's back and measure nothing.
    patterns = pytest_startup.collected({"pytest.ini": "[pytest]\npython_files = *.py\n"})
    assert not suite.protected(["calc.py", "pkg/util.py"], patterns, set())


def test_init_writes_the_python_files_and_testpaths_it_finds():
    files = ["pytest.ini", "checks/check_calc.py", "checks/helpers.py", "calc.py"]
    got = suite.detected(files, {"pytest.ini": CHECKS_INI})
    assert "checks/**" in got and "checks/**/check_*.py" in got
    assert suite.matches("checks/helpers.py", got) and not suite.matches("calc.py", got)


def test_init_python_files_keeps_a_testpath_that_is_the_project_s_package_code():
    # `testpaths = calc` with the tests inside the package (as pandas does): the package is code, its tests are protected.
    files = ["pytest.ini", "calc/__init__.py", "calc/core.py", "calc/tests/check_core.py"]
    got = suite.detected(files, {"pytest.ini": "[pytest]\ntestpaths = calc\npython_files = check_*.py\n"})
    assert "calc/**" not in got and suite.matches("calc/tests/check_core.py", got)
    assert not suite.matches("calc/core.py", got)


def test_init_with_python_files_says_what_it_protects_and_never_claims_a_suite_it_did_not_find(repo):
    from support.cli import cli

    write(repo, {"pytest.ini": CHECKS_INI, "checks/check_calc.py": TESTS})
    (repo / ".harness").mkdir()
    unit = {"command": ["python", "-m", "pytest", "--junitxml=.harness/local/junit.xml"], "junit": ".harness/local/junit.xml"}
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump({"version": 1, "evidence": {"unit_test": unit}}))
    r = cli(repo, "init")
    assert r.returncode == 0, r.stderr
    paths = yaml.safe_load((repo / ".harness/gate.yaml").read_text())["gate"]["suite"]["paths"]
    assert "checks/**" in paths and "checks/**/check_*.py" in paths and "checks/**" in r.stdout


def test_init_python_files_with_only_a_configuration_claims_no_test_suite(repo):
    from support.cli import cli

    write(repo, {"pytest.ini": "[pytest]\n", "calc.py": CALC})
    (repo / ".harness").mkdir()
    unit = {"command": ["python", "-m", "pytest", "--junitxml=.harness/local/junit.xml"], "junit": ".harness/local/junit.xml"}
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump({"version": 1, "evidence": {"unit_test": unit}}))
    r = cli(repo, "init")
    assert r.returncode == 0, r.stderr
    assert "protects the test suite it found" not in r.stdout and "found no test" in r.stdout


def test_a_check_module_the_base_s_python_files_names_weakened_fails_pass_to_pass(h, repo):
    tid = _based_on(h, repo, {"pytest.ini": CHECKS_INI, "checks/check_calc.py": TESTS})
    write(repo, {"calc.py": BUGGY, "checks/check_calc.py": TESTS.replace("== 6", "== 5").replace("(2, 5, 10)", "(2, 5, 7)")})
    assert h("evidence", "unit_test").code == 0
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1 and "checks.check_calc::test_mul" in _lost(rec)
    assert "checks/check_calc.py" in rec["pass_to_pass"]["protected_changed"]


def test_an_honest_change_with_python_files_checks_passes_pass_to_pass(h, repo):
    tid = _based_on(h, repo, {"pytest.ini": CHECKS_INI, "checks/check_calc.py": TESTS})
    write(repo, {"calc.py": SUB, "checks/check_sub.py": "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["protected_changed"] == ["checks/check_sub.py"]


# F-0293: doctest files, pytest's default `test*.txt` and the configuration's `--doctest-glob`.

@pytest.mark.parametrize("name", ["test_aaa.txt", "tests.txt", "docs/testing.txt", "pkg/test_examples.txt"])
def test_a_test_txt_doctest_file_is_always_protected(name):
    assert name in suite.protected([name], [], set())


@pytest.mark.parametrize("name", ["notes.txt", "requirements.txt", "docs/usage.txt", "data/contest.txt", "Test.txt"])
def test_a_txt_file_no_doctest_glob_names_stays_unprotected(name):
    assert name not in suite.protected([name], [], set())


def test_the_doctest_glob_patterns_of_the_base_s_configuration_are_collected():
    configs = {"pytest.ini": "[pytest]\naddopts = --doctest-glob=*.rst --doctest-glob 'check*.md' -q\n",
               "pkg/pyproject.toml": '[tool.pytest.ini_options]\naddopts = ["--doctest-glob", "*.doctest"]\n'}
    assert pytest_startup.collected(configs) == ["**/*.rst", "**/check*.md", "pkg/**/*.doctest"]


def test_an_added_test_txt_doctest_that_hides_failures_fails_pass_to_pass(h, repo):
    tid = _based_on(h, repo, {"tests/test_calc.py": TESTS})
    write(repo, {"calc.py": BUGGY, "test_aaa.txt": """\
        >>> import pytest
        >>> class Quiet:
        ...     @pytest.hookimpl(hookwrapper=True)
        ...     def pytest_runtest_makereport(self, item, call):
        ...         outcome = yield
        ...         rep = outcome.get_result()
        ...         if rep.failed:
        ...             rep.outcome, rep.longrepr = "passed", None
        >>> _ = getfixture("pytestconfig").pluginmanager.register(Quiet())
        """})
    assert h("evidence", "unit_test").code == 0  # the doctest hides every later failure here
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1 and "tests.test_calc::test_mul" in _lost(rec)
    assert "test_aaa.txt" in rec["pass_to_pass"]["protected_changed"]


def test_an_edit_of_a_txt_file_no_doctest_glob_names_reuses_the_test_run(h, repo):
    tid = _based_on(h, repo, {"tests/test_calc.py": TESTS, "notes.txt": "a note\n"})
    write(repo, {"calc.py": SUB, "notes.txt": "another note\n"})
    h.ok("evidence", "unit_test")
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["protected_changed"] == []
