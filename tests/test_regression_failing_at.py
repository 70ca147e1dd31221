"""`harness finding regression --failing-at COMMIT`: a regression test shown failing on a commit before
the fix, with the test file as it is now, in a throw-away checkout; and a finding past CONFIRMED given
another regression test (moved, renamed, rewritten) without losing its status."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from support.cli import Harness
from support.flows import proposal, propose
from support.gitrepo import commit_ok, git, head
from support.records import append_event, events, ledger_bytes, tdir
from support.templates import Template, template

PY = sys.executable
TEST = "tests/test_answer.py"
MOVED = "tests/test_answer_is_41.py"
BODY = """\
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import app

assert app.answer() == {want}, app.answer()
"""


@pytest.fixture(scope="session")
def confirmed_template(tmp_path_factory, h_template) -> Template:
    """A task whose F-0001 (answer() returns 42, not 41) is CONFIRMED by its reviewer's reproducer."""

    def build(repo: Path, h: Harness) -> dict:
        (repo / ".gitignore").write_text("__pycache__/\n", "utf-8")
        git(repo, "add", ".gitignore")
        git(repo, "commit", "-qm", "ignore caches")
        tid = h.ok("task", "new", "Findings").out.strip()
        assert propose(h, repo.parent, proposal()).code == 0
        h.ok("finding", "reproduce", "F-0001")
        return {"tid": tid}

    return template(tmp_path_factory, "regression-at-confirmed", build, on=h_template)


@pytest.fixture
def tid(confirmed_template, h) -> str:
    return confirmed_template.data["tid"]


def write_test(repo: Path, path: str = TEST, want: int = 41) -> None:
    (repo / path).parent.mkdir(exist_ok=True)
    (repo / path).write_text(BODY.format(want=want), "utf-8")


def commit_fix(repo: Path) -> str:
    """The fix, committed; returns the commit before it."""
    before = head(repo)
    (repo / "app.py").write_text("def answer():\n    return 41\n", "utf-8")
    git(repo, "add", "app.py")
    commit_ok(repo, "fix answer")
    return before


def finding(h: Harness, fid: str = "F-0001") -> dict:
    """The finding as findings/F-NNNN.yaml renders it from the ledger."""
    tid = json.loads(h.ok("status", "--json").out)["task"]["id"]
    return yaml.safe_load((tdir(h.root, tid) / "findings" / f"{fid}.yaml").read_text("utf-8"))


def regression_event(repo: Path, tid: str) -> dict:
    return [e for e in events(repo, tid) if e["type"].startswith("finding.regression")][-1]


def test_a_test_written_after_the_fix_is_shown_failing_on_the_commit_before_it(h, repo, tid):
    before = commit_fix(repo)
    write_test(repo)
    status = git(repo, "status", "--porcelain").stdout
    h.ok("finding", "regression", "F-0001", TEST, "--failing-at", "HEAD~1", "--", PY, TEST)
    e = regression_event(repo, tid)
    assert e["type"] == "finding.regression"
    assert e["data"]["failing_at"] == before and e["data"]["head"] == before
    assert e["data"]["outcome"] == "failed" and "AssertionError" in e["data"]["output_tail"]
    assert e["data"]["command"] == f"{PY} {TEST}" or e["data"]["argv"] == [PY, TEST]
    # The tree it failed on is the commit's source with the test: not the working tree's.
    assert e["data"]["tree"] != git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()
    assert git(repo, "status", "--porcelain").stdout == status, "the working tree was touched"
    assert (repo / "app.py").read_text("utf-8").endswith("return 41\n")
    assert not git(repo, "worktree", "list", "--porcelain").stdout.count("worktree ") > 1
    assert finding(h)["status"] == "FIXING"


def test_a_test_that_passes_on_the_commit_named_is_refused_and_nothing_is_recorded(h, repo, tid):
    commit_fix(repo)
    write_test(repo)
    before = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", TEST, "--failing-at", "HEAD", "--", PY, TEST)
    assert r.code != 0 and "did not fail at" in r.err, r.text
    assert ledger_bytes(repo, tid) == before
    assert finding(h)["status"] == "CONFIRMED"


@pytest.mark.parametrize("rev,why", [("no-such-rev", "no such commit"), ("side", "not in HEAD's history")])
def test_a_commit_outside_heads_history_is_refused_before_anything_runs(h, repo, tid, rev, why):
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "other.txt").write_text("x", "utf-8")
    git(repo, "add", "other.txt")
    commit_ok(repo, "a side branch")
    git(repo, "checkout", "-q", "-")
    write_test(repo)
    before = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", TEST, "--failing-at", rev, "--", PY, TEST)
    assert r.code != 0 and why in r.err and "git log --oneline" in r.err, r.text
    assert ledger_bytes(repo, tid) == before


def to_fixed(h: Harness, repo: Path) -> str:
    """F-0001 attached the usual way (failing on the working tree), fixed and committed: FIXED.
    Returns the commit the first test failed on top of."""
    write_test(repo)
    h.ok("finding", "regression", "F-0001", TEST, "--", PY, TEST)
    git(repo, "add", TEST)
    before = commit_fix(repo)
    h.ok("finding", "fixed", "F-0001")
    return before


def test_a_fixed_findings_test_moves_to_a_new_name_and_the_finding_stays_fixed(h, repo, tid):
    before = to_fixed(h, repo)
    git(repo, "mv", TEST, MOVED)
    h.ok("finding", "regression", "F-0001", MOVED, "--failing-at", before, "--", PY, MOVED)
    e = regression_event(repo, tid)
    assert e["type"] == "finding.regression_replaced"
    assert e["data"]["outcome"] == "failed" and e["data"]["now"]["outcome"] == "passed"
    f = finding(h)
    assert f["status"] == "FIXED"
    doc = yaml.safe_load((tdir(repo, tid) / "findings" / "F-0001.yaml").read_text("utf-8"))
    assert doc["regression_test"]["path"] == MOVED and MOVED in doc["regression_test"]["command"]
    assert doc["regression_test"]["failing_at"] == before
    assert h("replay").code == 0


def test_a_fixed_findings_test_cannot_be_replaced_on_the_fixed_code(h, repo, tid):
    before = to_fixed(h, repo)
    git(repo, "mv", TEST, MOVED)
    (repo / MOVED).write_text(BODY.format(want=41) + "# and more\n", "utf-8")  # moved, and changed
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", MOVED, "--", PY, MOVED)
    assert r.code != 0 and "is FIXED" in r.err and "--failing-at" in r.err and before[:12] in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger


def test_a_replacement_that_fails_on_the_fixed_code_too_is_refused(h, repo, tid):
    before = to_fixed(h, repo)
    write_test(repo, MOVED, want=40)  # fails before the fix and after it: it tests something else
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", MOVED, "--failing-at", before, "--", PY, MOVED)
    assert r.code != 0 and "does not pass on the fixed code" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger
    assert finding(h)["status"] == "FIXED"


def test_a_fixing_findings_test_is_replaced_on_the_working_tree(h, repo, tid):
    write_test(repo)
    h.ok("finding", "regression", "F-0001", TEST, "--", PY, TEST)
    write_test(repo, MOVED)
    h.ok("finding", "regression", "F-0001", MOVED, "--", PY, MOVED)
    assert regression_event(repo, tid)["type"] == "finding.regression_replaced"
    assert finding(h)["status"] == "FIXING"


@pytest.mark.parametrize("status", ["PROPOSED", "REPRODUCING"])
def test_no_regression_test_before_the_finding_is_confirmed_even_at_a_commit(h, repo, tid, status):
    assert propose(h, repo.parent, proposal(title="another one"), "second.yaml").code == 0
    if status == "REPRODUCING":
        h.ok("finding", "reproduce", "F-0002", "--", PY, "-c", "pass")
    write_test(repo)
    r = h("finding", "regression", "F-0002", TEST, "--failing-at", "HEAD", "--", PY, TEST)
    assert r.code != 0 and "INVALID FINDING TRANSITION" in r.err, r.text


def test_replay_refuses_a_hand_written_replacement_for_a_fixed_finding_without_the_commit(h, repo, tid):
    to_fixed(h, repo)
    append_event(repo, tid, "finding.regression_replaced",
                 {"id": "F-0001", "outcome": "failed", "path": MOVED, "command": f"{PY} {MOVED}",
                  "now": {"outcome": "passed", "tree": "0" * 40}})
    r = h("replay")
    assert r.code == 2 and "only on a commit before the fix" in r.err, r.text


def test_replay_refuses_a_hand_written_replacement_that_does_not_pass_now(h, repo, tid):
    to_fixed(h, repo)
    append_event(repo, tid, "finding.regression_replaced",
                 {"id": "F-0001", "outcome": "failed", "path": MOVED, "command": f"{PY} {MOVED}",
                  "failing_at": "a" * 40, "now": {"outcome": "failed", "tree": "0" * 40}})
    r = h("replay")
    assert r.code == 2 and "does not pass on the fixed code" in r.err, r.text


def test_replay_refuses_replacing_the_test_of_a_confirmed_finding(h, repo, tid):
    append_event(repo, tid, "finding.regression_replaced",
                 {"id": "F-0001", "outcome": "failed", "path": MOVED, "command": f"{PY} {MOVED}"})
    r = h("replay")
    assert r.code == 2 and "cannot replace the regression test of a CONFIRMED finding" in r.err, r.text


def test_a_fixed_findings_test_moved_unchanged_keeps_its_failing_run_and_must_pass(h, repo, tid):
    to_fixed(h, repo)
    first = regression_event(repo, tid)["data"]  # the run that showed it failing, which the move keeps
    git(repo, "mv", TEST, MOVED)
    h.ok("finding", "regression", "F-0001", MOVED)  # the command: the old one, the path renamed
    e = regression_event(repo, tid)
    assert e["type"] == "finding.regression_moved" and e["data"]["moved_from"] == TEST
    assert e["data"]["outcome"] == "passed" and e["data"]["argv"] == [PY, MOVED]
    doc = finding(h)
    assert doc["status"] == "FIXED" and doc["regression_test"]["path"] == MOVED
    assert h("replay").code == 0
    assert "failing_at" not in doc["regression_test"] and first["outcome"] == "failed"


@pytest.mark.parametrize("how", ["copied", "changed", "committed"])
def test_what_is_not_an_uncommitted_unchanged_move_needs_a_failing_run(h, repo, tid, how):
    to_fixed(h, repo)
    if how == "copied":
        (repo / MOVED).write_bytes((repo / TEST).read_bytes())
    else:
        git(repo, "mv", TEST, MOVED)
    if how == "changed":
        (repo / MOVED).write_text(BODY.format(want=41).replace("app.answer()", "(app.answer())"), "utf-8")
    if how == "committed":
        commit_ok(repo, "move the test")
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", MOVED, "--", PY, MOVED)
    assert r.code != 0 and "is FIXED" in r.err and "--failing-at" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger


def test_a_moved_test_that_fails_now_is_refused(h, repo, tid):
    to_fixed(h, repo)
    git(repo, "mv", TEST, MOVED)
    (repo / "app.py").write_text("def answer():\n    return 40\n", "utf-8")  # the fix undone
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", MOVED)
    assert r.code != 0 and "does not pass" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger


def test_replay_refuses_a_move_from_a_file_that_is_not_the_findings_test(h, repo, tid):
    to_fixed(h, repo)
    append_event(repo, tid, "finding.regression_moved",
                 {"id": "F-0001", "outcome": "passed", "path": MOVED, "command": f"{PY} {MOVED}",
                  "moved_from": "tests/test_other.py"})
    r = h("replay")
    assert r.code == 2 and "not tests/test_other.py" in r.err, r.text


# -- found by review (#27's task F-0009..F-0010) -------------------------------------------------

def test_a_moved_test_runs_as_it_did_its_command_cannot_change_with_the_move(h, repo, tid):
    """F-0009: a move given a new command (`python -c pass PATH`) would swap the test for a no-op."""
    to_fixed(h, repo)
    git(repo, "mv", TEST, MOVED)
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", MOVED, "--", PY, "-c", "pass", MOVED)
    assert r.code != 0 and "runs as it did" in r.err and "--failing-at" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger
    h.ok("finding", "regression", "F-0001", MOVED, "--", PY, MOVED)  # the same command, renamed: a move


def test_replay_refuses_a_move_whose_command_is_not_the_old_one_renamed(h, repo, tid):
    to_fixed(h, repo)
    append_event(repo, tid, "finding.regression_moved",
                 {"id": "F-0001", "outcome": "passed", "path": MOVED, "command": f"{PY} -c pass {MOVED}",
                  "argv": [PY, "-c", "pass", MOVED], "moved_from": TEST})
    r = h("replay")
    assert r.code == 2 and "runs as it did" in r.err, r.text


def test_failing_at_a_commit_before_the_finding_was_confirmed_is_refused(h, repo, tid):
    """F-0010: before the code the finding is about existed, any test of it fails (an import error)."""
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").stdout.split()[0]
    commit_fix(repo)
    write_test(repo)
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", TEST, "--failing-at", first, "--", PY, TEST)
    assert r.code != 0 and "before F-0001 was confirmed" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger


def test_failing_at_still_works_after_the_confirmed_commit_was_amended(h, repo, tid):
    """#27's task F-0013: the commit the finding was confirmed on is gone from HEAD's history (amended), not
    from the object store; HEAD's history from where the two part is what counts."""
    git(repo, "commit", "-q", "--amend", "--allow-empty", "-m", "the same commit, amended")
    before = commit_fix(repo)
    write_test(repo)
    h.ok("finding", "regression", "F-0001", TEST, "--failing-at", before, "--", PY, TEST)
    assert finding(h)["status"] == "FIXING"


# -- found by review (read 96's F-0325): --failing-at must name a commit where the bug is ----------------

NEWS_TEST = """\
import os, sys
# Fails wherever NEWS is missing: on any commit, the fixed ones too, for a reason that is not the bug.
sys.exit(0 if os.path.exists(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "NEWS")) else 1)
"""


def test_failing_at_a_commit_that_already_holds_the_fix_is_refused(h, repo, tid):
    """F-0325: a test failing at the fixed commit for another reason (a file only the working tree has) would
    replace the finding's real regression test, which could then be deleted; the reviewer's reproducer, run
    at that commit, passes: the commit holds the fix."""
    to_fixed(h, repo)
    (repo / "NEWS").write_text("version 2\n", "utf-8")
    (repo / MOVED).write_text(NEWS_TEST, "utf-8")
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0001", MOVED, "--failing-at", "HEAD", "--", PY, MOVED)
    assert r.code != 0 and "already holds the fix" in r.err and "name a commit before it" in r.err, r.text
    assert "reproducer" in r.err and "passes" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger
    assert finding(h)["regression_test"]["path"] == TEST and finding(h)["status"] == "FIXED"


def test_failing_at_the_commit_before_the_fix_still_replaces_the_test(h, repo, tid):
    """F-0325's neighbour: the same replacement named at the commit before the fix, where the reviewer's
    reproducer fails as it did when it confirmed the finding, is taken."""
    before = to_fixed(h, repo)
    (repo / "NEWS").write_text("version 2\n", "utf-8")
    (repo / MOVED).write_text(NEWS_TEST, "utf-8")
    h.ok("finding", "regression", "F-0001", MOVED, "--failing-at", before, "--", PY, MOVED)
    assert finding(h)["regression_test"]["path"] == MOVED and finding(h)["status"] == "FIXED"


SCRIPT = "repro_answer.py"
SCRIPT_BODY = "import app, sys\nsys.exit(0 if app.answer() == 41 else 1)\n"


def confirmed_by_a_script(h: Harness, repo: Path) -> str:
    """F-0002, whose reviewer's reproducer is a script the working tree holds and no commit does yet,
    CONFIRMED; then the fix committed. Returns the commit it was confirmed on top of (before the fix)."""
    # The script is there when the finding is proposed: a proposal is bound to the tree and the files it names
    # then, and only a run on them confirms it (F-0324, F-0326).
    (repo / SCRIPT).write_text(SCRIPT_BODY, "utf-8")
    assert propose(h, repo.parent, proposal(title="the script says so", recommended_reproducer={
        "type": "unit_test", "description": "run the script", "command": [PY, SCRIPT]}), "second.yaml").code == 0
    h.ok("finding", "reproduce", "F-0002")
    assert finding(h, "F-0002")["status"] == "CONFIRMED"
    return commit_fix(repo)


def test_failing_at_a_commit_without_the_reproducers_script_runs_it_as_the_working_tree_has_it(h, repo, tid):
    """F-0325's neighbour: the reviewer's script, committed after the commit named (or never), is taken from the
    working tree, as the test is: that commit still shows the bug."""
    before = confirmed_by_a_script(h, repo)
    write_test(repo)
    h.ok("finding", "regression", "F-0002", TEST, "--failing-at", before, "--", PY, TEST)
    assert finding(h, "F-0002")["status"] == "FIXING"


def test_failing_at_a_commit_where_the_reproducer_fails_otherwise_than_it_did_is_refused(h, repo, tid):
    """F-0325: a reproducer that fails at the commit named, but not as it did when it confirmed the finding
    (here its script is gone, so python exits 2, not 1), does not show the bug there."""
    before = confirmed_by_a_script(h, repo)
    (repo / SCRIPT).unlink()
    write_test(repo)
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0002", TEST, "--failing-at", before, "--", PY, TEST)
    assert r.code != 0 and "exit 2" in r.err and "exit 1" in r.err and "not shown" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger


# -- found running this repository's own flow (F-0350): a reproducer that runs the project's environment -------

ENV_SCRIPT = "repro_in_env.sh"
# Run from another folder, as this repository's reproducers run from a scratch repository: `app` is imported
# from PYTHONPATH or from the environment's .pth line (the working tree's), never from the current folder.
ENV_SCRIPT_BODY = """\
here=$(cd "$(dirname "$0")" && pwd)
cd "${TMPDIR:-/tmp}" || exit 2
exec "$here/.venv/bin/python" -c "import app, sys; sys.exit(0 if app.answer() == 41 else 1)"
"""


def confirmed_in_an_ignored_env(h: Harness, repo: Path) -> str:
    """F-0002, whose reproducer runs the project's git-ignored `.venv` (a real virtual environment with a .pth
    line naming the working tree, as an editable install has), CONFIRMED; then the fix committed. Returns the
    commit it was confirmed on top of (before the fix)."""
    import subprocess
    import sysconfig

    (repo / ".gitignore").write_text("__pycache__/\n.venv/\n", "utf-8")
    git(repo, "add", ".gitignore")
    commit_ok(repo, "ignore the environment")
    subprocess.run([PY, "-m", "venv", "--without-pip", str(repo / ".venv")], check=True)
    purelib = sysconfig.get_path("purelib", vars={"base": str(repo / ".venv"), "platbase": str(repo / ".venv")})
    (Path(purelib) / "editable_app.pth").write_text(f"{repo}\n", "utf-8")
    (repo / ".venv" / "kept").write_text("the environment's own file\n", "utf-8")
    (repo / ENV_SCRIPT).write_text(ENV_SCRIPT_BODY, "utf-8")
    assert propose(h, repo.parent, proposal(title="the environment says so", recommended_reproducer={
        "type": "unit_test", "description": "run in the environment", "command": ["sh", ENV_SCRIPT]}),
        "env.yaml").code == 0
    h.ok("finding", "reproduce", "F-0002")
    assert finding(h, "F-0002")["status"] == "CONFIRMED"
    return commit_fix(repo)


def test_failing_at_runs_a_reproducer_that_uses_the_projects_ignored_environment(h, repo, tid):
    """F-0350: a checkout holds no git-ignored file, so a reproducer running `.venv/bin/python` could not start
    there (exit 127) and the commit where the bug is was refused. The environment is linked into the checkout,
    and the checkout's code, not the working tree's that the environment's .pth line names, is what it imports:
    the commit before the fix shows the bug. The environment itself is left as it was."""
    before = confirmed_in_an_ignored_env(h, repo)
    write_test(repo)
    h.ok("finding", "regression", "F-0002", TEST, "--failing-at", before, "--", PY, TEST)
    assert finding(h, "F-0002")["status"] == "FIXING"
    assert (repo / ".venv" / "kept").read_text("utf-8") == "the environment's own file\n"
    assert (repo / ".venv" / "bin").is_dir()
    assert git(repo, "worktree", "list", "--porcelain").stdout.count("worktree ") == 1


def test_failing_at_a_fixed_commit_is_refused_though_the_environment_imports_the_working_tree(h, repo, tid):
    """F-0350's neighbour: with the environment linked, a commit that already holds the fix is still refused —
    the reproducer imports that commit's code and passes there."""
    confirmed_in_an_ignored_env(h, repo)
    write_test(repo)
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0002", TEST, "--failing-at", "HEAD", "--", PY, TEST)
    assert r.code != 0 and "did not fail at" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger and finding(h, "F-0002")["status"] == "CONFIRMED"


def test_only_ignored_python_environments_the_checkout_lacks_are_lent_and_the_links_go_afterwards(tmp_path):
    """F-0350's rule, narrowed by read 100: a Python environment (`pyvenv.cfg`, or a `bin/python`) that git ignores
    is lent; not a build output with a `bin/` (a build in the checkout would write the old commit's program into the
    working tree's, F-0352), not `node_modules` (a workspace's relative links resolve into the working tree's
    packages, F-0354), not a folder git does not ignore, not a name the checkout has. An environment whose own
    `.gitignore` ignores everything in it (uv, virtualenv, Python 3.13's venv) is ignored (F-0353)."""
    from harness.findings.checkout_env import lent

    root, checkout = tmp_path / "root", tmp_path / "checkout"
    for folder in (".venv", "uvenv", "node_modules/.bin", "build/bin", "tools/bin", "env/bin", "plain/bin"):
        (root / folder).mkdir(parents=True)
    for cfg in (".venv/pyvenv.cfg", "uvenv/pyvenv.cfg", "tools/bin/python3", "env/bin/python", "build/bin/answer",
                "node_modules/.bin/jest", "plain/bin/python3"):
        (root / cfg).write_text("", "utf-8")
    (checkout / "env").mkdir(parents=True)
    ignored = {".venv", "node_modules", "build", "env", "tools", "uvenv/pyvenv.cfg", "uvenv/bin/python"}
    with lent(root, checkout, ignored.__contains__):
        assert sorted(p.name for p in checkout.iterdir() if p.is_symlink()) == [".venv", "tools", "uvenv"]
        assert (checkout / ".venv").resolve() == (root / ".venv").resolve()
        assert not (checkout / "build").exists() and not (checkout / "node_modules").exists()
        assert not (checkout / "plain").exists() and not (checkout / "env").is_symlink()
    assert not (checkout / ".venv").exists() and (root / ".venv" / "pyvenv.cfg").is_file()


LIB_SCRIPT = "repro_lib.sh"
LIB_SCRIPT_BODY = """\
here=$(cd "$(dirname "$0")" && pwd)
cd "${TMPDIR:-/tmp}" || exit 2
exec "$here/.venv/bin/python" -c "import lib, sys; sys.exit(0 if lib.answer() == 41 else 1)"
"""
LIB_TEST = "tests/test_lib.py"


def workspace_package(h: Harness, repo: Path, pth: str) -> str:
    """packages/lib/src/lib.py (answer() returns 42), installed in the project's ignored `.venv` by the .pth line
    ``pth`` (``{lib}`` stands for its folder in the working tree); F-0002 CONFIRMED by a script that runs the
    environment's Python from another folder; the fix committed. Returns the commit before the fix."""
    import subprocess
    import sysconfig

    lib = repo / "packages" / "lib" / "src"
    lib.mkdir(parents=True)
    (lib / "lib.py").write_text("def answer():\n    return 42\n", "utf-8")
    (repo / ".gitignore").write_text("__pycache__/\n.venv/\n", "utf-8")
    git(repo, "add", ".gitignore", "packages")
    commit_ok(repo, "a workspace package")
    subprocess.run([PY, "-m", "venv", "--without-pip", str(repo / ".venv")], check=True)
    purelib = sysconfig.get_path("purelib", vars={"base": str(repo / ".venv"), "platbase": str(repo / ".venv")})
    (Path(purelib) / "_editable_lib.pth").write_text(pth.format(lib=str(lib)) + "\n", "utf-8")
    (repo / LIB_SCRIPT).write_text(LIB_SCRIPT_BODY, "utf-8")
    assert propose(h, repo.parent, proposal(title="lib says so", recommended_reproducer={
        "type": "unit_test", "description": "run in the environment", "command": ["sh", LIB_SCRIPT]}),
        "lib.yaml").code == 0
    h.ok("finding", "reproduce", "F-0002")
    assert finding(h, "F-0002")["status"] == "CONFIRMED"
    before = head(repo)
    (lib / "lib.py").write_text("def answer():\n    return 41\n", "utf-8")
    git(repo, "add", "packages")
    commit_ok(repo, "fix lib")
    (repo / "tests").mkdir(exist_ok=True)
    (repo / LIB_TEST).write_text("import lib\n\nassert lib.answer() == 41, lib.answer()\n", "utf-8")
    return before


def test_failing_at_imports_the_checkouts_workspace_package_not_the_working_trees(h, repo, tid):
    """F-0351: the environment's .pth line names the working tree's packages/lib/src, a folder PYTHONPATH did not put
    the checkout's counterpart of first: the checkout ran the working tree's (fixed) lib, and the commit before the
    fix was refused. The lent interpreter is asked where it imports from, and the checkout's folder comes first."""
    before = workspace_package(h, repo, "{lib}")
    h.ok("finding", "regression", "F-0002", LIB_TEST, "--failing-at", before, "--", ".venv/bin/python", LIB_TEST)
    assert finding(h, "F-0002")["status"] == "FIXING"


def test_failing_at_a_fixed_commit_is_refused_though_the_working_tree_has_the_bug_back(h, repo, tid):
    """F-0351: with the fix undone in the working tree only, the checkout of the fixed commit imported the working
    tree's buggy lib through the environment, and a commit holding the fix was taken as one where the bug is."""
    workspace_package(h, repo, "{lib}")
    (repo / "packages/lib/src/lib.py").write_text("def answer():\n    return 42\n", "utf-8")
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0002", LIB_TEST, "--failing-at", "HEAD", "--", ".venv/bin/python", LIB_TEST)
    assert r.code != 0, r.text
    assert ledger_bytes(repo, tid) == ledger and finding(h, "F-0002")["status"] == "CONFIRMED"


def test_failing_at_is_refused_when_the_environment_puts_the_working_tree_first(h, repo, tid):
    """F-0351: a .pth line that inserts the working tree ahead of PYTHONPATH cannot be undone by the order of the
    path: the run would measure the working tree's code, so it is refused with the remedy, and nothing recorded."""
    before = workspace_package(h, repo, "import sys; sys.path.insert(0, {lib!r})")
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0002", LIB_TEST, "--failing-at", before, "--", ".venv/bin/python", LIB_TEST)
    assert r.code != 0 and "checkout" in r.err and "editable" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger and finding(h, "F-0002")["status"] == "CONFIRMED"


# -- found running this repository's own flow (F-0376): an interpreter that ignores PYTHONPATH -------------------
# A git hook runs `python -E -P -m harness`; an interpreter started with -E or -I reads no PYTHONPATH, so in the
# checkout the environment's editable install (a .pth naming the working tree) chose the code it ran.

ISOLATED_SCRIPT_BODY = """\
here=$(cd "$(dirname "$0")" && pwd)
cd "${TMPDIR:-/tmp}" || exit 2
exec "$here/.venv/bin/python" -I -c "import app, sys; sys.exit(0 if app.answer() == 41 else 1)"
"""
# A console script of the environment started with no PYTHONPATH, as a hook's cleared environment starts it.
CONSOLE_SCRIPT_BODY = """\
here=$(cd "$(dirname "$0")" && pwd)
cd "${TMPDIR:-/tmp}" || exit 2
exec env -u PYTHONPATH "$here/.venv/bin/answer-ok"
"""
ISOLATED_TEST = "tests/test_answer_isolated.py"


def isolated_env(h: Harness, repo: Path, body: str) -> str:
    """F-0002 CONFIRMED by a script (``body``) that runs the project's git-ignored `.venv` so that PYTHONPATH is
    not read: the environment installs the project editable (a .pth naming the working tree), has a console script
    `answer-ok` (its shebang naming the environment's Python, as pip writes it) and a .pth whose `import` line
    runs a module of its own site-packages (as setuptools' distutils-precedence.pth does); the fix committed, and a
    test that runs the environment's Python isolated written. Returns the commit before the fix."""
    import subprocess

    (repo / ".gitignore").write_text("__pycache__/\n.venv/\n", "utf-8")
    git(repo, "add", ".gitignore")
    commit_ok(repo, "ignore the environment")
    venv = repo / ".venv"
    subprocess.run([PY, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = site_packages(venv)
    (site / "editable_app.pth").write_text(f"{repo}\n", "utf-8")
    (site / "_env_hook.py").write_text("import sys\nsys.env_hook_ran = True\n", "utf-8")
    (site / "env-hook.pth").write_text("import _env_hook\n", "utf-8")
    script = venv / "bin" / "answer-ok"
    script.write_text(f"#!{venv}/bin/python\nimport sys\nimport app\nsys.exit(0 if app.answer() == 41 else 1)\n",
                      "utf-8")
    script.chmod(0o755)
    (repo / ENV_SCRIPT).write_text(body, "utf-8")
    assert propose(h, repo.parent, proposal(title="the environment says so, isolated", recommended_reproducer={
        "type": "unit_test", "description": "run in the environment", "command": ["sh", ENV_SCRIPT]}),
        "isolated.yaml").code == 0
    h.ok("finding", "reproduce", "F-0002")
    assert finding(h, "F-0002")["status"] == "CONFIRMED"
    before = commit_fix(repo)
    (repo / "tests").mkdir(exist_ok=True)
    (repo / ISOLATED_TEST).write_text("import sys, app\nassert getattr(sys, 'env_hook_ran', False)\n"
                                      "assert app.answer() == 41, app.answer()\n", "utf-8")
    return before


def site_packages(venv: Path) -> Path:
    import sysconfig

    return Path(sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)}))


def env_files(venv: Path) -> dict[str, tuple]:
    """Every entry of the environment: its kind, and its link target or its bytes and mode."""
    import os

    out: dict[str, tuple] = {}
    for path in sorted(venv.rglob("*")):
        rel = path.relative_to(venv).as_posix()
        if path.is_symlink():
            out[rel] = ("link", os.readlink(path))
        elif path.is_dir():
            out[rel] = ("dir",)
        else:
            out[rel] = ("file", path.read_bytes(), path.stat().st_mode)
    return out


def test_failing_at_an_isolated_interpreter_of_the_environment_imports_the_checkouts_code(h, repo, tid):
    """F-0376: the reproducer runs the environment's Python with -I, from another folder: it ignored PYTHONPATH and
    imported the working tree's (fixed) app through the editable install, so the commit before the fix was refused
    as one that "already holds the fix". In the checkout the environment is a shadow whose editable install names
    the checkout: the commit before the fix shows the bug, and the real environment is left as it was."""
    before = isolated_env(h, repo, ISOLATED_SCRIPT_BODY)
    venv_was = env_files(repo / ".venv")
    h.ok("finding", "regression", "F-0002", ISOLATED_TEST, "--failing-at", before, "--",
         ".venv/bin/python", "-I", ISOLATED_TEST)
    assert finding(h, "F-0002")["status"] == "FIXING"
    assert env_files(repo / ".venv") == venv_was, "the real environment was written to"
    assert git(repo, "worktree", "list", "--porcelain").stdout.count("worktree ") == 1


def test_failing_at_a_fixed_commit_is_refused_though_an_isolated_interpreter_would_import_the_bug(h, repo, tid):
    """F-0376: with the fix undone in the working tree only, the isolated interpreter in the checkout of the fixed
    commit imported the working tree's buggy app: test and reproducer failed, and a commit holding the fix was
    taken as one where the bug is."""
    isolated_env(h, repo, ISOLATED_SCRIPT_BODY)
    (repo / "app.py").write_text("def answer():\n    return 42\n", "utf-8")
    ledger = ledger_bytes(repo, tid)
    r = h("finding", "regression", "F-0002", ISOLATED_TEST, "--failing-at", "HEAD", "--",
          ".venv/bin/python", "-I", ISOLATED_TEST)
    assert r.code != 0 and "did not fail at" in r.err, r.text
    assert ledger_bytes(repo, tid) == ledger and finding(h, "F-0002")["status"] == "CONFIRMED"


def test_failing_at_a_console_script_of_the_environment_imports_the_checkouts_code(h, repo, tid):
    """F-0376: a console script of the environment (its shebang the environment's Python) started without
    PYTHONPATH imported the working tree's code; in the checkout its shebang names the shadow's Python."""
    before = isolated_env(h, repo, CONSOLE_SCRIPT_BODY)
    write_test(repo)  # the test imports the checkout's app itself: the reproducer's console script is what is shown
    venv_was = env_files(repo / ".venv")
    h.ok("finding", "regression", "F-0002", TEST, "--failing-at", before, "--", PY, TEST)
    assert finding(h, "F-0002")["status"] == "FIXING"
    assert env_files(repo / ".venv") == venv_was, "the real environment was written to"


def real_env(root: Path) -> Path:
    """root/.venv, a real virtual environment installing root editable, with a console script, an activate script
    naming it, and a .pth `import` line of its own; root/app.py and checkout/app.py say where they are."""
    import subprocess

    venv = root / ".venv"
    subprocess.run([PY, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = site_packages(venv)
    (site / "editable_app.pth").write_text(f"# installed editable\n{root}\n", "utf-8")
    (site / "_env_hook.py").write_text("import sys\nsys.env_hook_ran = True\n", "utf-8")
    (site / "env-hook.pth").write_text("import _env_hook\n", "utf-8")
    (site / "installed_dep.py").write_text("WHERE = 'site-packages'\n", "utf-8")
    script = venv / "bin" / "where-app"
    script.write_text(f"#!{venv}/bin/python\nimport app, installed_dep\nprint(app.WHERE, installed_dep.WHERE)\n",
                      "utf-8")
    script.chmod(0o755)
    (root / "app.py").write_text("WHERE = 'working tree'\n", "utf-8")
    return venv


def run_isolated(python: Path, code: str, cwd: Path, *flags: str) -> str:
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(python), *flags, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_f0556_an_install_into_the_lent_environment_writes_nothing_into_the_real_one(tmp_path):
    """Read 159's F-0556: the shadow's site folder held links to the real one's packages (self-found 27's F-0548),
    and an install in the checkout (pip over an installed package) wrote through them into the real environment."""
    from harness.findings.checkout_env import lent

    root, checkout = tmp_path / "root", tmp_path / "checkout"
    for folder in (root, checkout):
        folder.mkdir()
    venv = real_env(root)
    (site_packages(venv) / "dep").mkdir()
    (site_packages(venv) / "dep" / "__init__.py").write_text("VERSION = '1.0'\n", "utf-8")
    with lent(root, checkout, {".venv"}.__contains__):
        shadow_site = site_packages(checkout / ".venv")
        (shadow_site / "dep").mkdir(exist_ok=True)  # as an installer lays a package down over an installed one
        (shadow_site / "dep" / "__init__.py").write_text("VERSION = '0.9'\n", "utf-8")
    assert (site_packages(venv) / "dep" / "__init__.py").read_text("utf-8") == "VERSION = '1.0'\n"


def test_f0555_a_package_installed_as_a_link_into_the_tree_imports_the_checkouts_code(tmp_path):
    """Read 159's F-0555: `flit install --symlink` puts a link to the working tree's module in site-packages, which no
    `.pth` line names; an interpreter of the lent shadow started with -I imported the working tree's code at the old
    commit. The link is the checkout's counterpart in the shadow now; with none there, the lend is refused."""
    from harness.errors import HarnessError
    from harness.findings.checkout_env import lent

    root, checkout, elsewhere = tmp_path / "root", tmp_path / "checkout", tmp_path / "elsewhere"
    for folder in (root, checkout, elsewhere):
        folder.mkdir()
    venv = real_env(root)
    (root / "calc.py").write_text("WHERE = 'working tree'\n", "utf-8")
    (site_packages(venv) / "calc.py").symlink_to(root / "calc.py")
    (checkout / "calc.py").write_text("WHERE = 'checkout'\n", "utf-8")
    with lent(root, checkout, {".venv"}.__contains__):
        shadow = checkout / ".venv" / "bin" / "python"
        for flags in ((), ("-I",)):
            assert run_isolated(shadow, "import calc; print(calc.WHERE)", elsewhere, *flags) == "checkout", flags
    (checkout / "calc.py").unlink()
    with pytest.raises(HarnessError, match="links into the repository"), lent(root, checkout, {".venv"}.__contains__):
        pass
    assert not (checkout / ".venv").exists()


def test_f0558_a_link_into_the_tree_below_a_package_folder_is_refused(tmp_path):
    """Read 160's F-0558: `flit install --symlink` of a package in a namespace package links `acme/calc` to the
    working tree below the site folder's top, where no remapping reached; the lend is refused, with the remedy. A link
    below a package folder to somewhere outside the repository is no reason to refuse."""
    from harness.errors import HarnessError
    from harness.findings.checkout_env import lent

    root, checkout = tmp_path / "root", tmp_path / "checkout"
    for folder in (root, checkout):
        folder.mkdir()
    venv = real_env(root)
    (site_packages(venv) / "acme").mkdir()
    elsewhere = tmp_path / "elsewhere-pkg"
    elsewhere.mkdir()
    (site_packages(venv) / "acme" / "other").symlink_to(elsewhere)
    with lent(root, checkout, {".venv"}.__contains__):
        pass  # the honest link: nothing refused
    (root / "acme" / "calc").mkdir(parents=True)
    (site_packages(venv) / "acme" / "calc").symlink_to(root / "acme" / "calc")
    (checkout / "acme" / "calc").mkdir(parents=True)
    with pytest.raises(HarnessError, match="inside a package folder"), lent(root, checkout, {".venv"}.__contains__):
        pass
    assert not (checkout / ".venv").exists()


def test_f0559_an_install_writing_data_files_in_the_lent_environment_leaves_the_real_ones(tmp_path):
    """Read 160's F-0559: the shadow linked the real environment's `share/` (and `include/`, `etc/`), where an
    installer puts a wheel's data files and headers, and an install in the checkout wrote through it."""
    from harness.findings.checkout_env import lent

    root, checkout = tmp_path / "root", tmp_path / "checkout"
    for folder in (root, checkout):
        folder.mkdir()
    venv = real_env(root)
    (venv / "share" / "dep").mkdir(parents=True)
    (venv / "share" / "dep" / "VERSION").write_text("1.0\n", "utf-8")
    with lent(root, checkout, {".venv"}.__contains__):
        data = checkout / ".venv" / "share" / "dep"
        data.mkdir(parents=True, exist_ok=True)  # as an installer lays a wheel's data files down
        (data / "VERSION").write_text("0.9\n", "utf-8")
    assert (venv / "share" / "dep" / "VERSION").read_text("utf-8") == "1.0\n"


def test_a_lent_virtual_environment_is_a_shadow_that_imports_the_checkouts_code_whatever_the_flags(tmp_path):
    """F-0376: a virtual environment is not linked into the checkout but shadowed there: its interpreters are the
    real ones' (the same links), its editable install names the checkout, its packages and its own `.pth` imports
    come from the real site-packages, its console scripts and activate scripts name the shadow; the shadow goes
    afterwards and the real environment is never written to."""
    import os
    import subprocess

    from harness.findings.checkout_env import lent

    root, checkout, elsewhere = tmp_path / "root", tmp_path / "checkout", tmp_path / "elsewhere"
    for folder in (root, checkout, elsewhere):
        folder.mkdir()
    venv = real_env(root)
    (checkout / "app.py").write_text("WHERE = 'checkout'\n", "utf-8")
    was = env_files(venv)
    with lent(root, checkout, {".venv"}.__contains__) as pythons:
        shadow = checkout / ".venv"
        assert shadow.is_dir() and not shadow.is_symlink()
        assert pythons and all(p.parent == shadow / "bin" for p in pythons)
        assert os.readlink(shadow / "bin" / "python3") == os.readlink(venv / "bin" / "python3")
        for flags in ((), ("-I",), ("-E", "-P")):
            said = run_isolated(shadow / "bin" / "python", "import app, installed_dep, sys; "
                                "print(app.WHERE, installed_dep.WHERE, sys.env_hook_ran)", elsewhere, *flags)
            assert said == "checkout site-packages True", (flags, said)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out = subprocess.run([str(shadow / "bin" / "where-app")], cwd=elsewhere, env=env, capture_output=True,
                             text=True, check=True).stdout.strip()
        assert out == "checkout site-packages"
        activate = (shadow / "bin" / "activate").read_text("utf-8")
        assert str(shadow) in activate and f"{venv}'" not in activate and f'{venv}"' not in activate
        assert (shadow / "pyvenv.cfg").read_text("utf-8").startswith((venv / "pyvenv.cfg").read_text("utf-8"))
    assert not os.path.lexists(checkout / ".venv")
    assert env_files(venv) == was, "the real environment was written to"


@pytest.mark.parametrize("pth,module", [
    ("import sys; sys.path.insert(0, {root!r})", None),
    ("import __editable___app_0_1_finder; __editable___app_0_1_finder.install()",
     "MAPPING = {{'app': {app!r}}}\ndef install():\n    pass\n"),
])
def test_a_lent_environment_whose_pth_imports_the_repository_is_refused(tmp_path, pth, module):
    """F-0376: an `import` line that names the repository (a path inside it, or an editable finder of the
    site-packages mapping a name into it) cannot be pointed at the checkout without guessing: refused with the
    remedy, and nothing left in the checkout."""
    import os

    from harness.errors import HarnessError
    from harness.evidence.tree_imports import REMEDY_EDITABLE
    from harness.findings.checkout_env import lent

    root, checkout = tmp_path / "root", tmp_path / "checkout"
    root.mkdir()
    checkout.mkdir()
    venv = real_env(root)
    site = site_packages(venv)
    (site / "finder.pth").write_text(pth.format(root=str(root)) + "\n", "utf-8")
    if module:
        (site / "__editable___app_0_1_finder.py").write_text(module.format(app=str(root / "app.py")), "utf-8")
    with pytest.raises(HarnessError) as refused, lent(root, checkout, {".venv"}.__contains__):
        pass
    assert "finder.pth" in refused.value.message and refused.value.hint == REMEDY_EDITABLE
    assert not os.path.lexists(checkout / ".venv")


def test_a_lent_environment_whose_finder_maps_elsewhere_keeps_its_import_line(tmp_path):
    """F-0376's neighbour: an editable finder of another project (outside the repository) is no concern of the
    checkout: its `import` line is copied as it is, and the shadow's interpreter runs it."""
    from harness.findings.checkout_env import lent

    root, checkout, other = tmp_path / "root", tmp_path / "checkout", tmp_path / "other"
    for folder in (root, checkout, other):
        folder.mkdir()
    (other / "otherpkg.py").write_text("WHERE = 'other'\n", "utf-8")
    venv = real_env(root)
    site = site_packages(venv)
    (site / "__editable___other_0_1_finder.py").write_text(
        f"import sys\nMAPPING = {{'otherpkg': {str(other / 'otherpkg.py')!r}}}\n"
        f"def install():\n    sys.path.append({str(other)!r})\n", "utf-8")
    (site / "__editable__.other-0.1.pth").write_text(
        "import __editable___other_0_1_finder; __editable___other_0_1_finder.install()\n", "utf-8")
    (checkout / "app.py").write_text("WHERE = 'checkout'\n", "utf-8")
    with lent(root, checkout, {".venv"}.__contains__):
        said = run_isolated(checkout / ".venv" / "bin" / "python", "import app, otherpkg; print(app.WHERE, "
                            "otherpkg.WHERE)", tmp_path, "-I")
        assert said == "checkout other"
