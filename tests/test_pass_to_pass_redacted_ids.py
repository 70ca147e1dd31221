"""PASS_TO_PASS with a base case whose id holds text the redactor rewrites (read 110's F-0392).

A parametrized test of a URL parser is named after its URL: `test_url[postgres://app:hunter2secret@db/x]`. The test
run's case listing keeps that id redacted; the base's cases are measured unredacted. Both are compared in one spelling,
and the record keeps only the redacted one, whether the test run is reused or PASS_TO_PASS runs in a worktree.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.gitrepo import commit_all_ok
from support.protected_project import CALC, protect, write
from support.records import record

# Reuse is keyed by the interpreter's site-packages, which other tests write into: each test's project runs its tests
# with a virtualenv of the worker's own (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("own_python_runs_the_tests")

SECRET = "hunter2secret"
URL_TESTS = (
    "import pytest\n\nfrom calc import scheme\n\n\n"
    f"@pytest.mark.parametrize('url', ['postgres://app:{SECRET}@db/x', 'http://example.com/x'])\n"
    "def test_url(url):\n    assert scheme(url) in ('postgres', 'http')\n")
WITH_SCHEME = CALC + "\n\ndef scheme(url):\n    return url.split('://')[0]\n"
IGNORED = {".gitignore": "__pycache__/\n"}  # the run's caches, as a project ignores them


def _clean_environment(monkeypatch) -> None:
    """Only what PASS_TO_PASS's clean environment keeps: a test run under anything else is never reused (F-0391)."""
    from harness.runner import KEPT_ENV

    for name in [n for n in os.environ if n not in KEPT_ENV]:
        monkeypatch.delenv(name)


@pytest.fixture
def urls(h, repo) -> str:
    """A protected project whose base tests name a URL holding a password; a task started on it."""
    write(repo, {"calc.py": WITH_SCHEME, "tests/test_url.py": URL_TESTS})
    protect(repo)
    commit_all_ok(repo, "urls")
    return h.ok("task", "new", "Refactor calc").out.strip()


def written(repo: Path) -> str:
    """What the harness wrote for the task (not .harness/local/, where the test command writes its own report)."""
    return "\n".join(p.read_text("utf-8", errors="replace") for p in (repo / ".harness").rglob("*")
                     if p.is_file() and "local" not in p.relative_to(repo / ".harness").parts)


def test_a_reused_run_with_a_secret_shaped_case_id_passes(h, repo, urls, monkeypatch):
    _clean_environment(monkeypatch)
    write(repo, {"calc.py": WITH_SCHEME + "\n# a refactor that changes no behaviour\n", **IGNORED})
    h.ok("evidence", "unit_test")
    r = h("evidence", "pass_to_pass")
    assert r.code == 0, r.text
    rec = record(repo, urls, "pass_to_pass")
    assert rec["pass_to_pass"]["reused_run"] == record(repo, urls, "unit_test")["run_id"]
    assert rec["pass_to_pass"]["lost"] == [] and SECRET not in written(repo)


def test_a_reused_run_names_a_secret_shaped_case_it_lost_redacted(h, repo, urls, monkeypatch):
    _clean_environment(monkeypatch)
    write(repo, {"calc.py": WITH_SCHEME.replace("return url.split('://')[0]", "return url.split(':')[1]"),
                 **IGNORED})
    h("evidence", "unit_test")  # fails: the postgres case and the http case
    r = h("evidence", "pass_to_pass")
    assert r.code == 1, r.text
    rec = record(repo, urls, "pass_to_pass")
    assert rec["pass_to_pass"]["reused_run"] == record(repo, urls, "unit_test")["run_id"]
    shown = {item["case"]: item["how"] for item in rec["pass_to_pass"]["lost"]}
    assert len(shown) == 2 and set(shown.values()) == {"failed"}, shown
    assert any("postgres://app:[REDACTED:" in case for case in shown) and SECRET not in written(repo)


def test_a_worktree_run_with_a_secret_shaped_case_id_passes_and_keeps_it_redacted(h, repo, urls):
    """Still right: with a protected file changed, PASS_TO_PASS runs in a worktree and compares raw ids."""
    write(repo, {"tests/test_url.py": URL_TESTS + "\n"})
    r = h("evidence", "pass_to_pass")
    assert r.code == 0, r.text
    rec = record(repo, urls, "pass_to_pass")
    assert rec["pass_to_pass"]["reused_run"] is None and rec["pass_to_pass"]["lost"] == []
    assert SECRET not in written(repo)
