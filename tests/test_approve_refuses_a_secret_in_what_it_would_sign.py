"""`harness approve suite-change` refuses, before anything is signed or written, a case id holding a secret-shaped
value (read 155's F-0547): the ids are signed as given and kept in clear in the committed approvals.jsonl (their
digest is what the gate checks, so they cannot be redacted), and only the commit hook, naming the file as written by
hand, kept the line out of a commit, leaving the secret on disk."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from support.gitrepo import commit_all_ok
from support.processes import run_in_pty
from support.ssh_keys import make_key, sign_as_listed

_R = random.Random(547)
GHP = "ghp_" + "".join(_R.choice(string.ascii_letters + string.digits) for _ in range(36))
PW = "".join(_R.choice(string.ascii_letters + string.digits) for _ in range(20))
APPROVALS = ".harness/approvals.jsonl"


@pytest.fixture
def based(h, repo, tmp_path) -> Path:
    sign_as_listed(repo, *make_key(tmp_path / "keys", "human"))
    commit_all_ok(repo, "adopt the harness")
    h.ok("task", "new", "Rework the API")
    return repo


@pytest.mark.parametrize("case", [f"tests/test_api.py::test_auth[{GHP}]", f"tests/test_db.py::test_login[password={PW}]"],
                         ids=["github-token", "password"])
def test_f0547_a_case_id_holding_a_secret_is_refused_before_anything_is_signed(based, case):
    code, screen = run_in_pty(based, ["approve", "suite-change", "tests/test_api.py::test_ok", case], "approve")
    assert code != 0, screen
    assert "secret" in screen and "nothing signed" in screen, screen
    assert GHP not in screen and PW not in screen, screen
    assert not (based / APPROVALS).exists()


def test_f0547_ordinary_case_ids_are_approved(based):
    # the honest case: parametrized ids with words, numbers, a path and a hash-like value are no secrets
    cases = ["tests/test_api.py::test_auth[token-expired]", "tests/test_db.py::test_login[user=alice-3]",
             "tests/test_sum.py::test_sum[1-2-3]", "tests/test_git.py::test_resolve[9fceb02d0ae598e95dc970b74767f19372d61af8]"]
    code, screen = run_in_pty(based, ["approve", "suite-change", *cases], "approve")
    assert code == 0 and "approved by" in screen, screen
    written = (based / APPROVALS).read_text()
    assert all(c in written for c in cases), written
