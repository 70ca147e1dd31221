"""The protected suite's pure rules: which paths are protected, which cases are lost, what loosens it."""

from __future__ import annotations

import pytest
import yaml

from harness.core import policy, pytest_startup, runner_texts, suite

from support.paths import ROOT

FILES = {"tests/test_a.py", "tests/unit/test_b.py", "conftest.py", "pkg/conftest.py", "pkg/mod.py",
         "pyproject.toml", "scripts/test.sh", "Makefile", "docs/tests/readme.md"}


@pytest.mark.parametrize("pattern, want", [
    ("tests/**", {"tests/test_a.py", "tests/unit/test_b.py"}),
    ("**/conftest.py", {"conftest.py", "pkg/conftest.py"}),
    ("pyproject.toml", {"pyproject.toml"}),
    ("*.toml", {"pyproject.toml"}),
    ("tests/*.py", {"tests/test_a.py"}),  # one star stays in its folder
    ("**/tests/**", {"tests/test_a.py", "tests/unit/test_b.py", "docs/tests/readme.md"}),
    ("pkg/?od.py", {"pkg/mod.py"}),
    ("/tests/**/", {"tests/test_a.py", "tests/unit/test_b.py"}),  # leading and trailing slashes ignored
    ("nothing/**", set()),
])
def test_globs_match_like_gitignore(pattern, want):
    assert {f for f in FILES if suite.matches(f, [pattern])} == want


def test_a_regex_character_in_a_glob_is_literal():
    assert suite.matches("a+b.py", ["a+b.py"]) and not suite.matches("aab.py", ["a+b.py"])
    assert not suite.matches("pyprojectxtoml", ["pyproject.toml"])


@pytest.mark.parametrize("argv, want", [
    (["bash", "scripts/test.sh"], {"scripts/test.sh"}),
    (["bash", "./scripts/test.sh"], {"scripts/test.sh"}),
    (["make", "-f", "Makefile", "test"], {"Makefile"}),
    (["pytest", "--config-file=pyproject.toml"], {"pyproject.toml"}),
    (["pytest", "-c", "pkg//mod.py"], {"pkg/mod.py"}),
    (["python", "-m", "pytest", "-q"], set()),
    (["bash", "scripts/absent.sh"], set()),  # not in the tree: nothing to protect
])
def test_files_a_command_names_are_found_in_its_arguments(argv, want):
    assert suite.named_files([argv], FILES) == want


def test_protected_is_what_the_globs_match_and_what_commands_name():
    # conftest.py files are protected whatever the globs say (pytest runs them)
    # and pytest's configuration files, in any folder (read 74's F-0265)
    assert suite.protected(FILES, ["tests/**"], {"Makefile"}) == {"tests/test_a.py", "tests/unit/test_b.py", "Makefile",
                                                                 "conftest.py", "pkg/conftest.py", "pyproject.toml"}


def test_changed_protected_lists_added_deleted_and_edited_protected_files_only():
    base = {"tests/a.py": "1", "tests/gone.py": "2", "src/x.py": "3", "tests/same.py": "4"}
    now = {"tests/a.py": "1b", "tests/new.py": "5", "src/x.py": "3b", "tests/same.py": "4"}
    assert suite.changed_protected(base, now, ["tests/**"], set()) == ["tests/a.py", "tests/gone.py", "tests/new.py"]


@pytest.mark.parametrize("now, how", [
    ("failed", "failed"), ("errors", "errored"), ("skipped", "skipped or xfailed"), (None, "missing (not collected)"),
])
def test_a_base_case_that_does_not_pass_now_is_lost_with_how(now, how):
    run = {"t::b": "passed", **({"t::a": now} if now else {})}
    assert suite.lost_cases({"t::a": "passed", "t::b": "passed"}, run) == [("t::a", how)]


def test_only_cases_that_passed_at_the_base_are_protected():
    base = {"t::failing": "failed", "t::skipped": "skipped", "t::passing": "passed"}
    assert suite.lost_cases(base, {"t::passing": "passed"}) == []
    assert suite.lost_cases(base, {"t::passing": "passed", "t::failing": "failed", "t::skipped": "failed"}) == []


@pytest.mark.parametrize("outcome", ["failed", "errors"])
def test_f0564_a_case_the_base_did_not_have_that_fails_is_lost(outcome):
    # The run holds the base's tests alone: a new case is a new parameter of one, drawn from the change's data.
    base = {"t::ops[add]": "passed"}
    lost = suite.lost_cases(base, {"t::ops[add]": "passed", "t::ops[mul]": outcome})
    assert [case for case, _ in lost] == ["t::ops[mul]"]
    assert "the base did not have" in lost[0][1]


@pytest.mark.parametrize("outcome", ["passed", "skipped"])
def test_f0564_a_new_case_that_passes_or_is_skipped_is_not_lost(outcome):
    assert suite.lost_cases({"t::ops[add]": "passed"}, {"t::ops[add]": "passed", "t::ops[mul]": outcome}) == []


def test_the_identity_changes_with_the_base_the_paths_and_the_command():
    cmd = {"argv": ["pytest"], "junit": "r.xml", "shell": False}
    one = suite.digest(suite.identity(cmd, "unit_test", "a" * 40, ["tests/**"]))
    assert one == suite.digest(suite.identity(cmd, "unit_test", "a" * 40, ["tests/**"]))
    assert one != suite.digest(suite.identity(cmd, "unit_test", "b" * 40, ["tests/**"]))
    assert one != suite.digest(suite.identity(cmd, "unit_test", "a" * 40, ["tests/**", "x"]))
    assert one != suite.digest(suite.identity({**cmd, "junit": None}, "unit_test", "a" * 40, ["tests/**"]))


@pytest.mark.parametrize("old, new, want", [
    ({"paths": ["a", "b"]}, {"paths": ["a", "b", "c"]}, []),                 # adding tightens
    ({"paths": ["a", "b"]}, {"paths": ["b", "a"]}, []),                      # order is no change
    ({"paths": ["a", "b"]}, {"paths": ["a"]}, ["suite.paths 'b' removed"]),
    ({"paths": ["a"]}, None, ["suite removed"]),
    (None, {"paths": ["a"]}, []),                                           # adopting it tightens
    ({"paths": ["a"]}, {"paths": ["a"], "test_type": "custom.e2e"}, ["suite.test_type unit_test → custom.e2e"]),
])
def test_the_suite_only_tightens_without_approval(old, new, want):
    assert suite.loosenings(old, new) == want


def test_gate_loosenings_include_the_suite():
    base = yaml.safe_load((ROOT / "templates/gate.yaml").open())["gate"]
    old = {**base, "suite": {"paths": ["tests/**"]}}
    assert policy.loosenings(old, {**base, "suite": {"paths": []}}) == ["suite.paths 'tests/**' removed"]
    assert policy.loosenings(old, {**old, "verification": {**base["verification"], "pass_to_pass": "required"}}) == []


@pytest.mark.parametrize("before, after, want", [
    ({"argv": ["pytest"], "junit": "r.xml", "shell": False}, {"argv": ["pytest"], "junit": None, "shell": False},
     ["evidence.unit_test.junit 'r.xml' → None"]),
    ({"argv": ["pytest"], "junit": "r.xml", "shell": False}, {"argv": ["pytest"], "junit": "other.xml", "shell": False},
     ["evidence.unit_test.junit 'r.xml' → 'other.xml'"]),
    ({"argv": ["pytest"], "junit": None, "shell": False}, {"argv": ["pytest"], "junit": "r.xml", "shell": False}, []),
    ({"argv": ["make test"], "junit": None, "shell": False}, {"argv": ["make test"], "junit": None, "shell": True},
     ["evidence.unit_test.shell False → True"]),
    ({"argv": ["pytest"], "junit": None, "shell": False}, {"argv": ["true"], "junit": None, "shell": False},
     ["evidence.unit_test.command 'pytest' → 'true'"]),
])
def test_what_decides_pass_or_fail_of_a_command_is_policy(before, after, want):
    assert policy.command_changes({"unit_test": before}, {"unit_test": after}) == want


def test_init_detects_the_python_suite_it_finds():
    files = ["tests/test_a.py", "src/pkg/conftest.py", "pyproject.toml", "README.md"]
    assert suite.detected(files) == ["tests/**", *suite.CONFIG_FILES]
    assert suite.detected(["app.py"]) == []


def test_with_suite_requires_pass_to_pass_and_writes_valid_policy():
    from harness.store import settings

    text = suite.with_suite((ROOT / "templates/gate.yaml").open().read(), ["tests/**", "pyproject.toml"])
    pol = settings.parse_gate(text.encode())
    assert pol.doc["verification"]["pass_to_pass"] == "required"
    assert pol.suite == {"paths": ["tests/**", "pyproject.toml"]}
    assert suite.with_suite("unchanged", []) == "unchanged"


# -- found by an adversarial review (F-0002, F-0003, F-0005, F-0010 of TASK-20261203-1dafdf) ------------

def test_init_protects_every_pytest_configuration_file_even_the_absent_ones():
    paths = suite.detected(["tests/test_a.py", "src/calc.py"])
    for pattern in ("tests/**", "**/conftest.py", "pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml",
                    "tox.ini", "setup.cfg", "pyproject.toml"):
        assert pattern in paths, (pattern, paths)


@pytest.mark.parametrize("name", [".pytest.ini", "pytest.toml", ".pytest.toml", "sitecustomize.py",
                                  "usercustomize.py", "src/sitecustomize.py", "x.pth",
                                  "setup.py", "pkg/setup.py"])  # its pytest11 entry points (read 133's F-0473)
def test_files_that_configure_the_interpreter_or_pytest_are_always_protected(name):
    assert name in suite.protected([name], [], set())


SETUP_PY = """from setuptools import setup

setup(name="calc", entry_points={{"pytest11": {points}, "console_scripts": ["calc = calc:main"]}})
"""


@pytest.mark.parametrize("points, want", [
    ('["calc_plugin = calc_plugin", "more = pkg.more:hooks"]', ["calc_plugin", "pkg.more"]),
    ('("calc_plugin = calc_plugin",)', ["calc_plugin"]),
    ('"calc_plugin = calc_plugin\\n  more = pkg.more"', ["calc_plugin", "pkg.more"]),
    ("PLUGINS", []),  # computed: the base's code is never run to find out (what it installs is kept out of the runs)
])
def test_f0473_a_setup_py_names_its_pytest11_plugins_in_a_literal(points, want):
    assert pytest_startup.entry_point_plugins("setup.py", SETUP_PY.format(points=points)) == want
    assert pytest_startup.settings_of("setup.py", "[pytest]\naddopts = -p evil\n") == {}  # no pytest configuration


# read 97's F-0331: `site` imports `sitecustomize` and `usercustomize` by module name, in whatever form the import
# system loads: each form, in any folder, is a start-up file.
@pytest.mark.parametrize("name", ["src/sitecustomize/__init__.py", "sitecustomize/__init__.pyc", "src/sitecustomize.pyc",
                                  "src/sitecustomize.cpython-311-x86_64-linux-gnu.so", "lib/sitecustomize.abi3.so",
                                  "sitecustomize.so", "src/usercustomize/__init__.cpython-311-x86_64-linux-gnu.so",
                                  "a/b/usercustomize.pyd", "src/usercustomize.cp311-win_amd64.pyd",
                                  "src/sitecustomize/__pycache__/__init__.cpython-311.pyc"])
def test_f0331_a_start_up_module_in_any_form_is_always_protected(name):
    assert name in suite.protected([name], [], set())


@pytest.mark.parametrize("name", ["src/calcpkg/customize.py", "src/sitecustomize_tools.py", "src/mysitecustomize.py",
                                  "src/sitecustomizer/__init__.py", "src/calcpkg/site.py", "src/usercustom.so",
                                  "docs/sitecustomize.md", "src/sitecustomize/helpers.py"])
def test_f0331_a_module_only_named_like_a_start_up_one_is_code(name):
    """The honest neighbour: the project's own modules stay code (a package `sitecustomize`'s other modules run only
    when its `__init__`, protected, imports them)."""
    assert suite.protected([name], [], set()) == set()
    assert suite.changed_protected({}, {name: "blob"}, [], set()) == []


@pytest.mark.parametrize("argv, want", [
    (["make", "test"], {"Makefile"}),
    (["make", "-C", "sub", "test"], set()),           # another folder's Makefile: not guessed
    (["npm", "test"], {"package.json"}),
    (["nox"], {"noxfile.py"}),
    (["tox", "-e", "py"], {"tox.ini"}),
])
def test_files_a_command_reads_without_naming_them_are_protected(argv, want):
    files = {"Makefile", "package.json", "noxfile.py", "tox.ini", "src/x.py"}
    assert suite.named_files([argv], files) == want


@pytest.mark.parametrize("text", ["python -c 'import calc'\nfalse", "pytest # the fast ones", "cat ~/.netrc",
                                  "pytest tests/*.py", "pytest test_{a,b}.py", "pytest test_?.py",
                                  "echo \"it's $HOME\"", "echo `date`"])
def test_shell_syntax_a_split_would_change_is_found(text):
    from harness.core.shell_syntax import shell_syntax

    assert shell_syntax(text), text


@pytest.mark.parametrize("text", ["echo \\$HOME", "pytest -o \"x=\\$y\"", "pytest -k 'a or b'", "grep -E 'x$' f",
                                  "python -c 'import sys; print(1)'", "pytest -p no:cacheprovider",
                                  "echo 'a # b'", "ls 'tests/*.py'"])
def test_strings_whose_split_means_what_they_say_are_not_refused(text):
    from harness.core.shell_syntax import shell_syntax

    assert shell_syntax(text) is None, text


def test_a_case_list_as_large_as_a_junit_report_can_be_read(tmp_path):
    from harness.store import bounded

    big = tmp_path / "unit_test.cases"
    big.write_bytes(b"passed\t" + b"x" * (20 << 20) + b"\n")
    assert bounded.read(big, bounded.kind_of(".harness/tasks/T/evidence/unit_test.cases")) is not None


def test_case_ids_with_any_line_break_character_survive_the_cases_file():
    from harness.core.cases import cases_text, read_cases
    from harness.core.redact import compile_patterns

    cases = {"t::para\u2028graph": "passed", "t::a\x85b": "failed", "t::c\rd": "passed", "t::e\nf": "skipped"}
    assert read_cases(cases_text(cases, compile_patterns([]))) == cases


@pytest.mark.parametrize("files, want", [
    (["packages/a/tests/test_x.py"], "**/tests/**"),
    (["src/pkg/calc_test.py"], "**/*_test.py"),
    (["src/pkg/test_calc.py"], "**/test_*.py"),
])
def test_init_detects_nested_and_colocated_test_files(files, want):
    assert want in suite.detected(files)


@pytest.mark.parametrize("name", [
    "test_aaa.py", "src/pkg/test_helpers.py", "pkg/calc_test.py",            # pytest collects them by name (F-0227)
    "evil-0.dist-info/entry_points.txt", "src/x.egg-info/entry_points.txt",  # entry points name plugins (F-0226)
    "evil-0.DIST-INFO/entry_points.txt", "x.Egg-Info/PKG-INFO",              # in any case, as importlib finds them
    "__pycache__/conftest.cpython-311-pytest-9.2.0.pyc",                     # a protected module's cache (F-0242)
    "tests/__pycache__/test_calc.cpython-311.pyc",
])
def test_what_loads_before_or_beside_the_tests_is_always_protected(name):
    # Read 67 and 71: each of these loaded a plugin, or other code, that passed every test in PASS_TO_PASS.
    assert name in suite.protected([name], [], set())


@pytest.mark.parametrize("name", ["pprint.py", "fnmatch.py", "json/__init__.py", "types.pyc", "pluggy.py",
                                  "_pytest/__init__.py", "iniconfig.py", "packaging/__init__.py",
                                  "_ssl.cpython-311-x86_64-linux-gnu.so", "json/__init__.cpython-311-x86_64-linux-gnu.so"])
def test_a_module_the_change_adds_in_place_of_one_pytest_imports_is_taken_out(name):
    # F-0228, read 71's F-0240 (pytest's own dependencies), F-0246 (a package's __init__ of any importable suffix).
    assert suite.changed_protected({}, {name: "blob"}, [], set()) == [name]


@pytest.mark.parametrize("name", ["statistics.py", "secrets.py", "profile.py", "test.py"])
def test_the_project_s_own_module_named_like_a_standard_one_stays_code(name):
    # Read 71's F-0243: protected, the project's own statistics.py went onto the base's source in FAIL_TO_PASS, and
    # the new test passed "without the change".
    assert suite.changed_protected({name: "old"}, {name: "new"}, [], set()) == []


@pytest.mark.parametrize("name", ["calc.py", "src/pprint.py", "json/fixture.json", "pkg/testing.py", "docs/test.md",
                                  "contest_py.txt", "src/pkg/__init__.py", "__pycache__/calc.cpython-311.pyc",
                                  "dist-info.md", "docs/egg-info.txt"])
def test_ordinary_code_and_data_stay_unprotected(name):
    # What a task changes freely: PASS_TO_PASS runs the current version of it.
    assert name not in suite.protected([name], [], set())


RUN_FILES = {"scripts/test.sh", "scripts/fix.py", "scripts/inner", "src/calc.py", "calc.py", "sub/run.sh",
             "data/cases.json", "ci/run-tests.sh", "Makefile", "scripts/run_tests.py", "scripts/junitfix.py",
             "pkg/__init__.py", "pkg/cli.py", "pkg/__main__.py", "ci/Makefile"}


@pytest.mark.parametrize("where, text, want", [
    ("Makefile", "test:\n\tsh scripts/test.sh\n", {"scripts/test.sh"}),
    ("Makefile", "test:\n\t./scripts/test.sh && scripts/inner\n", {"scripts/test.sh", "scripts/inner"}),
    # Code is named too, however its interpreter starts (read 129's F-0458); the base's tests reaching it keep it the
    # change's (harness.evidence.pass_to_pass.run_by_runners).
    ("Makefile", "lint:\n\truff check src/calc.py\n", {"src/calc.py"}),
    ("Makefile", "test:\n\tpython -X dev -W error::DeprecationWarning scripts/fix.py\n", {"scripts/fix.py"}),
    ("Makefile", "test:\n\tpython scripts/fix.py\n\t$(PYTHON) -X dev calc.py\n",
     {"scripts/fix.py", "calc.py", "src/calc.py"}),  # which folder a recipe is in is not followed: both are named
    ("package.json", '{"scripts": {"test": "bash ci/run-tests.sh"}}', {"ci/run-tests.sh"}),
    ("sub/Makefile", "test:\n\t./run.sh data/cases.json\n", {"sub/run.sh", "data/cases.json"}),
    ("scripts/test.sh", "#!/bin/sh\nexec python3 -m pytest --junitxml=out.xml\n", set()),
    ("tox.ini", "[testenv]\ncommands = bash {toxinidir}/ci/run-tests.sh\n", {"ci/run-tests.sh"}),  # from the root
    # Read 127's F-0451: a recipe that changes folder names its script from there; F-0452: a module run with -m.
    ("Makefile", "test:\n\tcd scripts && sh ./test.sh\n", {"scripts/test.sh"}),
    ("Makefile", "test:\n\tpython -m scripts.run_tests\n\tpython3 -m pkg\n", {"scripts/run_tests.py",
                                                                                "pkg/__init__.py", "pkg/__main__.py"}),
    # Read 130's F-0463: `-m PKG` runs PKG/__main__.py; F-0464: a folder handed the work (`make -C ci`, `cd ci && make`)
    # names the runner texts in it.
    ("Makefile", "test:\n\t$(MAKE) -C ci test\n", {"ci/Makefile"}),
    ("Makefile", "test:\n\tcd ci && make\n", {"ci/Makefile"}),
    # F-0460: a Python runner's literal paths are words like any runner's.
    ("scripts/run_tests.py", "subprocess.call([sys.executable, 'scripts/fix.py', report])\n", {"scripts/fix.py"}),
])
def test_the_files_a_runners_text_names_are_what_it_runs(where, text, want):
    # Read 126's F-0450: the script a protected Makefile's recipe runs was not protected; PASS_TO_PASS put the
    # base's Makefile back and ran the change's script, which laundered the report.
    tree = runner_texts.TreeFiles(RUN_FILES)
    assert runner_texts.named_by_runner(text, where, tree, []) == want


@pytest.mark.parametrize("path, runner", [("Makefile", True), ("sub/GNUmakefile", True), ("package.json", True),
                                          ("tox.ini", True), ("noxfile.py", True), ("justfile", True),
                                          ("ci/x.sh", True), ("common.mk", True), ("calc.py", False),
                                          ("README.md", False), ("notMakefile", False),
                                          ("pyproject.toml", True), ("tox.toml", True), ("setup.py", False)])
def test_a_runners_text_is_known_by_its_name(path, runner):
    assert runner_texts.is_runner_text(path) == runner


def test_a_runner_scripts_imports_are_the_modules_beside_it_and_on_the_path():
    # Read 127's F-0452: the helper module a runner script imports is what the runner runs.
    text = "import sys\nimport junitfix\nfrom pkg import cli\nfrom . import nothing\n"
    assert runner_texts.imported(text) >= {"junitfix", "pkg", "pkg.cli", "sys"}
    assert runner_texts.imported("def (:\n") is None
    tree = runner_texts.TreeFiles(RUN_FILES)
    assert tree.modules(runner_texts.imported(text), [], "scripts") == {"scripts/junitfix.py", "pkg/__init__.py",
                                                                        "pkg/cli.py"}


@pytest.mark.parametrize("links, word, want", [
    ({"scripts": "tools"}, "scripts/post.py", {"tools/post.py"}),
    ({"scripts/post.py": "../tools/post.py"}, "scripts/post.py", {"scripts/post.py", "tools/post.py"}),
    ({"a": "b", "b": "tools"}, "a/post.py", {"tools/post.py"}),  # a chain of links
    ({"scripts": "/etc"}, "scripts/post.py", set()),  # out of the tree: nothing of it is the tree's
    ({"scripts": "../outside"}, "scripts/post.py", set()),
    ({"loop": "loop"}, "loop/post.py", set()),  # a loop ends, as the kernel's bound ends it
])
def test_a_runner_names_a_file_through_the_links_the_base_holds(links, word, want):
    # Read 132's F-0468: with `scripts -> tools` at the base, a Makefile's `python scripts/post.py` named no file, so
    # tools/post.py stayed the change's and could launder the report.
    tree = runner_texts.TreeFiles({"tools/post.py", *links}, links)
    assert tree.named(word, "") == want


@pytest.mark.parametrize("argv, want", [(["poe", "test"], {"pyproject.toml"}), (["hatch", "run", "test"], {"pyproject.toml"}),
                                        (["pdm", "run", "test"], {"pyproject.toml"}), (["tox"], {"pyproject.toml", "tox.toml"})])
def test_a_task_runner_reads_its_tasks_from_pyproject(argv, want):
    # Read 132's F-0469: the script a `[tool.poe.tasks]` task runs was the change's: pyproject.toml is the runner's text.
    assert suite.named_files([argv], {"pyproject.toml", "tox.toml", "calc.py"}) == want
    tree = runner_texts.TreeFiles({"pyproject.toml", "scripts/post.py"})
    text = '[tool.poe.tasks]\ntest = { shell = "pytest && python scripts/post.py" }\n'
    assert runner_texts.named_by_runner(text, "pyproject.toml", tree, []) == {"scripts/post.py"}


def test_f0485_a_plugin_a_subfolder_s_packaging_declares_is_found_beside_it():
    # Read 136's F-0485: a setup.py (or pyproject.toml) in pkgs/calc/ declares `calc_plugin`, installed from there:
    # its module is pkgs/calc/calc_plugin.py (or under pkgs/calc/src/), not a file at the root.
    text = 'from setuptools import setup\nsetup(entry_points={"pytest11": ["calc_plugin = calc_plugin"]})\n'
    files, _ = pytest_startup.startup({"pkgs/calc/setup.py": text})
    assert {"pkgs/calc/calc_plugin.py", "pkgs/calc/src/calc_plugin.py"} <= set(files), files
    toml = '[project]\nname = "x"\n[project.entry-points.pytest11]\np = "xpkg.plugin:hooks"\n'
    files, _ = pytest_startup.startup({"pkgs/x/pyproject.toml": toml})
    assert {"pkgs/x/xpkg/plugin.py", "pkgs/x/src/xpkg/plugin.py"} <= set(files), files


def test_f0573_a_new_failing_case_of_a_test_that_already_failed_at_the_base_is_not_lost():
    # Parameter ids from an object's repr (a memory address) differ in every run: the base's failing case comes back
    # failing under another id. The base already failed that test; nothing is lost.
    base = {"t::test_cfg[<Config at 0x7f01>]": "failed", "t::test_ok": "passed"}
    run = {"t::test_cfg[<Config at 0x7f99>]": "failed", "t::test_ok": "passed"}
    assert suite.lost_cases(base, run) == []


def test_f0573_a_new_failing_case_of_a_test_that_passed_at_the_base_is_still_lost():
    base = {"t::test_ops[add]": "passed", "u::test_ops[mul]": "failed"}  # another test of the same name failed
    lost = suite.lost_cases(base, {"t::test_ops[add]": "passed", "t::test_ops[mul]": "failed"})
    assert [case for case, _ in lost] == ["t::test_ops[mul]"]
