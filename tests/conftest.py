"""Fixtures: real git repositories in temp folders, the harness CLI run against them, and the
pre-commit framework's environment for this hook repository. Plain helpers are in the support
package; how the run is scheduled and cleaned up, in its plugin (support/plugin.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# pytest rewrites the asserts of every test module it imports, and of every module of a plugin's
# distribution (hypothesis registers one: all ~90 of its modules), and would keep the result as
# bytecode, but not under PYTHONDONTWRITEBYTECODE=1 (this project's CI and dev shells): the
# controller and each xdist worker would rewrite them all again (~1.7 s of CPU each here, hypothesis
# alone; nested runs load no plugins, see hermetic_env). So this comes before the imports below.
# The processes the tests start keep the variable; only pytest's own write bytecode
# (tests/__pycache__/ and the venv's __pycache__/, both ignored by git).
sys.dont_write_bytecode = False

from hypothesis import HealthCheck, settings  # noqa: E402  (after the line above)

from support import hypothesis_pool  # noqa: E402
from support.cli import Harness  # noqa: E402
from support.environment import GIT_ENV, HOOKS_KEY, hermetic_env, hooks_started  # noqa: E402
from support.gitrepo import commit_ok, git, head  # noqa: E402
from support.hook_repo import Pc, build_hook_repo, config_text, install_pc  # noqa: E402
from support.paths import PY, outside_env  # noqa: E402
from support.templates import Template, materialise, once_per_run, template  # noqa: E402

# The suite's own pytest plumbing (where temp folders go, how xdist deals the tests, the trash of
# old runs): a plugin module, tested by test_suite_layout.py and test_suite_temp_cleanup.py (e2e).
pytest_plugins = ("support.plugin",)

# Property and fuzz tests: a small default that keeps the suite quick and deterministic (the
# same examples on every run, so CI's verdict does not depend on the draw), and a long random
# run on demand to find new cases (`pytest --hypothesis-profile=long tests/test_fuzz_inputs.py`).
# No example database: nothing is written into the checkout.
_FUZZ = {"database": None, "deadline": None,
         "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                   HealthCheck.function_scoped_fixture]}
settings.register_profile("default", max_examples=40, derandomize=True, **_FUZZ)
settings.register_profile("long", max_examples=2000, derandomize=False, **_FUZZ)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
hypothesis_pool.pin()  # derandomized means the same examples, whatever ran before in the worker


def pytest_runtest_setup(item):
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        hypothesis_pool.load_package()


@pytest.fixture(autouse=True)
def _git_identity(request, monkeypatch, tmp_path_factory):
    # Tests never depend on (or write to) the machine's git config.
    home = tmp_path_factory.mktemp("home")
    hermetic_env(monkeypatch, home)
    yield
    # A test that drives a real git hook is end-to-end by the suite's own definition (pyproject.toml's
    # markers), and the inner loop leaves it out: one without the marker fails here rather than slow
    # the inner loop unseen. The hooks a session template's build started count too: the test
    # copies what they did.
    if request.node.get_closest_marker("e2e") is None:
        tpl = request.node.stash.get(TEMPLATE, None)
        started = list(dict.fromkeys([*(tpl.data.get(HOOKS_KEY, []) if tpl else []), *hooks_started(home)]))
        if started:
            pytest.fail(f"this test drives real git hooks ({', '.join(started)}) without @pytest.mark.e2e: mark it "
                        "end-to-end (or call the hook's program directly)", pytrace=False)


@pytest.fixture(autouse=True)
def _in_process_audits_leave_the_worker_its_capabilities(monkeypatch):
    # A root audit run in this process (the in-process runner runs many commands per process) gives back the read-only
    # view of /proc/sys it takes, but would take CAP_SYS_ADMIN out of the worker's bounding set for good: a `harness
    # audit` the worker starts after it could make no view of its own, and would re-run nothing (F-0584). What the
    # drop does to what an audit starts, and an audit that could not drop one, are tested in processes of their own
    # (test_a_root_audit_s_re_runs_write_no_kernel_setting.py), and by every audit the tests start as a process.
    from harness.history.rerun import kernel_caps

    monkeypatch.setattr(kernel_caps, "drop_kernel_capabilities", lambda *a, **k: False)


TEMPLATE = pytest.StashKey[Template]()


# A test's repository is built once per run, as a template (support.templates.template), and copied into the
# test: the copy of the richest template among the fixtures ``*_template`` the test needs. So the
# fixtures that build on ``repo`` (``h``, ``pc``, a module's own) find their work done in the copy,
# and the repository the test asks for as ``repo`` is the one ``h`` and ``pc`` hold.


@pytest.fixture(scope="session")
def repo_template(tmp_path_factory) -> Template:
    """What ``repo`` copies."""
    return template(tmp_path_factory, "repo", lambda repo, h: {})


@pytest.fixture(scope="session")
def h_template(tmp_path_factory, repo_template) -> Template:
    """What ``h`` copies: ``repo`` after `harness init`."""

    def build(repo: Path, h: Harness) -> dict:
        h.ok("init")
        return {"initialized": True}

    return template(tmp_path_factory, "h", build, on=repo_template)


@pytest.fixture(scope="session")
def task_template(tmp_path_factory, h_template) -> Template:
    """``h``'s repository with a fresh current task: what a module copies when its own templates
    build on that task (it then overrides ``task`` to return ``task_template.data["task"]``)."""

    def build(repo: Path, h: Harness) -> dict:
        return {"task": h.ok("task", "new", "Add resumable execution").out.strip()}

    return template(tmp_path_factory, "task", build, on=h_template)


@pytest.fixture
def repo(request, tmp_path, repo_template) -> Path:
    """An empty git repository with one commit of source code (plus what the richest template the
    test needs holds, see above)."""
    templates = [request.getfixturevalue(name) for name in request.fixturenames if name.endswith("_template")]
    templates = [t for t in templates if isinstance(t, Template)]
    tpl = max(templates, key=lambda t: len(t.lineage))
    assert all(t.lineage[-1] in tpl.lineage for t in templates), \
        f"the test needs templates not built on one another: {[t.lineage for t in templates]}"
    request.node.stash[TEMPLATE] = tpl
    return materialise(tpl, tmp_path)


@pytest.fixture
def h(request, repo, capfd, h_template) -> Harness:
    """The harness CLI, initialized in ``repo``."""
    harness = Harness(repo, capfd)
    if not request.node.stash[TEMPLATE].data.get("initialized"):
        harness.ok("init")
    return harness


@pytest.fixture
def task(h) -> str:
    """A fresh current task; returns its id."""
    return h.ok("task", "new", "Add resumable execution").out.strip()


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory) -> dict:
    """{'path', 'sha', 'home'}: the hook repository and a PRE_COMMIT_HOME whose environment is built.

    Built once per test run, shared by the xdist workers: the pip install of the hook repository
    into pre-commit's environment is slow once, then reused by every test."""

    def build(base: Path) -> dict:
        path, sha = build_hook_repo(base)
        home = base / "pre-commit-home"
        seed = base / "seed"
        seed.mkdir()
        env = outside_env(**GIT_ENV, PRE_COMMIT_HOME=str(home))
        subprocess.run(["git", "init", "-q"], cwd=seed, env=env, check=True, capture_output=True)
        (seed / ".pre-commit-config.yaml").write_text(config_text(path, sha))
        proc = subprocess.run([PY, "-m", "pre_commit", "install-hooks"], cwd=seed, env=env,
                              capture_output=True, text=True, timeout=1200)
        assert proc.returncode == 0, f"pre-commit install-hooks failed:\n{proc.stdout}\n{proc.stderr}"
        return {"path": str(path), "sha": sha, "home": str(home)}

    _, built = once_per_run(tmp_path_factory, "hook-repo", build)
    return {"path": Path(built["path"]), "sha": built["sha"], "home": Path(built["home"])}


@pytest.fixture(scope="session")
def pc_template(tmp_path_factory, h_template, hook_repo) -> Template:
    """What ``pc`` copies: .harness/ initialized, the pre-commit hooks installed and committed
    through them, and a bare remote as origin holding that history."""

    def build(repo: Path, h: Harness) -> dict:
        install_pc(repo, hook_repo)
        git(repo, "add", "-A")
        commit_ok(repo, "harness init and pre-commit config")
        remote = repo.parent / "remote.git"
        git(repo.parent, "init", "-q", "--bare", str(remote))
        git(repo, "remote", "add", "origin", str(remote))
        # The remote starts with the project's history (pushed without hooks: the history from before
        # `harness init` is the subject of its own test, test_history_from_before_harness_init_...).
        git(repo, "push", "-q", "--no-verify", "-u", "origin", "main")
        return {"base": head(repo)}

    return template(tmp_path_factory, "pc", build, on=h_template, PRE_COMMIT_HOME=str(hook_repo["home"]))


@pytest.fixture
def pc(h, repo, tmp_path, pc_template, hook_repo, monkeypatch) -> Pc:
    """``repo`` with .harness/ initialized, the pre-commit hooks installed and committed, and a
    bare remote as origin holding that history (a copy of ``pc_template``)."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(hook_repo["home"]))
    return Pc(repo, tmp_path / "remote.git", h, pc_template.data["base"])


@pytest.fixture
def ft(h, repo) -> str:
    """A task in a repository whose bytecode and pytest caches are ignored (so running Python does
    not change the source tree); returns the task id."""
    (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n", "utf-8")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore caches")
    return h.ok("task", "new", "Findings").out.strip()


# -- a protected project (tests/support/protected_project.py) with a task on it ----------------------------------

@pytest.fixture(scope="session")
def own_venv(tmp_path_factory) -> Path:
    """A virtualenv of this worker's own, borrowing the suite's packages (support.protected_project.small_venv)."""
    from support.protected_project import small_venv

    return small_venv(tmp_path_factory.mktemp("own-venv") / "venv").parent


@pytest.fixture
def own_python_runs_the_tests(monkeypatch, own_venv) -> Path:
    """Protected projects made in this test run their tests with ``own_venv``'s python: for a test that expects
    PASS_TO_PASS to reuse the checkout's run, which a write into the suite's own site-packages by another test would
    rightly stop. Returns the virtualenv."""
    from support import protected_project

    monkeypatch.setattr(protected_project, "TEST_CMD", [str(own_venv / "bin" / "python"),
                                                        *protected_project.TEST_CMD[1:]])
    return own_venv


@pytest.fixture
def base(h, repo) -> str:
    """A committed project whose tests pass, protected (tests/support/protected_project.py); a task started on it
    (its base)."""
    from support.gitrepo import commit_all_ok
    from support.protected_project import CALC, TESTS, protect, write

    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    commit_all_ok(repo, "calc with tests")
    return h.ok("task", "new", "Make mul faster").out.strip()


@pytest.fixture
def approver(h, repo, tmp_path) -> tuple[str, Path]:
    """A protected project whose committed allowed_signers lists a human's real SSH key; a task on it."""
    from support.gitrepo import commit_all_ok, git
    from support.protected_project import CALC, TESTS, protect, write
    from support.ssh_keys import make_key, signers_line

    key, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS,
                 ".harness/allowed_signers": signers_line("test@example.com", public)})
    protect(repo)
    commit_all_ok(repo, "calc with tests, an approver")
    return h.ok("task", "new", "mul adds when a is 2 (the user asked)").out.strip(), key
