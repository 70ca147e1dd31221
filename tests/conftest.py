"""Fixtures: real git repositories in temp folders, the harness CLI run against them, and the
pre-commit framework's environment for this hook repository. Plain helpers are in helpers.py."""

from __future__ import annotations

import compileall
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

from helpers import (  # noqa: E402
    GIT_ENV,
    HOOKS_KEY,
    PY,
    ROOT,
    Harness,
    Pc,
    Template,
    build_hook_repo,
    commit_ok,
    config_text,
    git,
    head,
    hermetic_env,
    hooks_started,
    install_pc,
    materialise,
    once_per_run,
    outside_env,
    ram_temp_root,
    slow_first_in_each_share,
    template,
)

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


@pytest.hookimpl(trylast=True)  # after pytest's tmp_path plugin has made config._tmp_path_factory
def pytest_configure(config):
    if hasattr(config, "workerinput"):
        return  # the controller's choices reach the workers (xdist hands each its --basetemp)
    # Every `python -m harness` a test starts imports the package from source; with
    # PYTHONDONTWRITEBYTECODE=1 none of them would write its bytecode, so each would compile the
    # whole package again. Compile it once, before the run; __pycache__/ is ignored by git.
    compileall.compile_dir(str(ROOT / "harness"), quiet=1)
    _temp_in_memory(config)


def _temp_in_memory(config) -> None:
    """The run's temp folders on a tmpfs (helpers.ram_temp_root) unless the machine has none to
    spare or the caller chose (``--basetemp``, PYTEST_DEBUG_TEMPROOT, TMPDIR). The choice is made
    by creating the run's folder now, with the variable set for that moment only: the processes
    the tests start, nested pytest runs among them, see the environment as the caller left it."""
    if config.option.basetemp or "PYTEST_DEBUG_TEMPROOT" in os.environ or "TMPDIR" in os.environ:
        return
    root = ram_temp_root()
    if root is None:
        return
    os.environ["PYTEST_DEBUG_TEMPROOT"] = str(root)
    try:
        config._tmp_path_factory.getbasetemp()
    finally:
        del os.environ["PYTEST_DEBUG_TEMPROOT"]


@pytest.hookimpl(wrapper=True)  # around pytest-xdist's own, which makes `-n` mean `--dist load`
def pytest_cmdline_main(config):
    # `-n` without `--dist` distributes as `--dist worksteal`: a worker that runs out of tests
    # takes the back half of a busy one's queue, so the run ends when the work does, not when the
    # worker dealt the slowest tests finishes them. A `--dist load` (or other mode) given stands.
    if getattr(config.option, "dist", "no") == "no" and getattr(config.option, "numprocesses", None):
        config.option.dist = "worksteal"
    return (yield)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent without xdist
def pytest_xdist_auto_num_workers(config):
    # `-n auto`: one worker more than the cores this process may use. Many tests wait on a command,
    # a lock or a timeout they start; the extra worker runs while they wait (on 2 cores the inner
    # loop's mean wall time was ~8% lower over six runs against eight, inside the machine's noise;
    # the full suite's the same).
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1) + 1


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent without xdist
def pytest_configure_node(node):
    # The workers collect, and each rebuilds its options with `dist` reset to "no": tell them.
    node.workerinput["suite_dist"] = node.config.option.dist


def pytest_collection_modifyitems(config, items):
    workerinput = getattr(config, "workerinput", None)
    dist = workerinput.get("suite_dist") if workerinput else config.getoption("dist", "no")
    if dist == "worksteal":
        items[:] = slow_first_in_each_share(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")),
                                             lambda item: item.get_closest_marker("e2e") is not None)


def _held_by_a_live_run(folder: Path) -> bool:
    """Whether pytest's `.lock` in ``folder`` names a process still running: a run started beside
    this one (a single test file while the suite runs as evidence) whose repositories must stay.
    A killed run leaves its lock behind naming a dead pid; its folder goes like any other. A lock
    that cannot be read counts as held: pytest's own cleanup then decides, as it would anyway."""
    try:
        pid = int((folder / ".lock").read_text())
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # EPERM: alive, another user's
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    # pytest keeps the temp folders of the last three runs and, as a run ends, deletes the one
    # before them: ~55,000 files, ~8 s the developer waits for after the last test. Moved aside
    # here (a rename, instant) and deleted by a detached `rm` instead, so that pytest finds nothing
    # to delete; a trash an interrupted `rm` left is swept by the next run. The controller only
    # (xdist workers keep theirs under its folder), and only folders pytest numbered itself and
    # no live run holds.
    config = session.config
    if hasattr(config, "workerinput") or config.option.basetemp:
        return
    import uuid

    root = config._tmp_path_factory.getbasetemp().parent
    keep = int(config.getini("tmp_path_retention_count"))
    runs = sorted((int(p.name[7:]), p) for p in root.glob("pytest-*") if p.name[7:].isdigit() and not p.is_symlink())
    trash = [p for p in root.glob(".trash-*") if p.is_dir()]
    for number, path in runs:
        if number <= runs[-1][0] - keep and not _held_by_a_live_run(path):
            try:
                trash.append(path.rename(root / f".trash-{uuid.uuid4().hex}"))
            except OSError:
                continue  # pytest's own cleanup will try it
    if trash:
        subprocess.Popen(["rm", "-rf", "--", *map(str, trash)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)


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


TEMPLATE = pytest.StashKey[Template]()


# A test's repository is built once per run, as a template (helpers.template), and copied into the
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


# -- a protected project (tests/protected_project.py) with a task on it ----------------------------------

@pytest.fixture
def base(h, repo) -> str:
    """A committed project whose tests pass, protected (tests/protected_project.py); a task started on it
    (its base)."""
    from protected_project import CALC, TESTS, protect, write

    from helpers import commit_all_ok

    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    commit_all_ok(repo, "calc with tests")
    return h.ok("task", "new", "Make mul faster").out.strip()


@pytest.fixture
def approver(h, repo, tmp_path) -> tuple[str, Path]:
    """A protected project whose committed allowed_signers lists a human's real SSH key; a task on it."""
    from protected_project import CALC, TESTS, protect, write
    from ssh_keys import make_key, signers_line

    from helpers import commit_all_ok, git

    key, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS,
                 ".harness/allowed_signers": signers_line("test@example.com", public)})
    protect(repo)
    commit_all_ok(repo, "calc with tests, an approver")
    return h.ok("task", "new", "mul adds when a is 2 (the user asked)").out.strip(), key
