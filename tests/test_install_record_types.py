"""The install record is a journal every value of which goes to `git config`: a record with a
value `harness install` never writes is refused with the field named, before any change; a
record it does write (a pending one too) is acted on."""

from __future__ import annotations

import json

import pytest

from support.gitrepo import git

REFUSED = {
    "pending-unknown": ({"pending": "reinstall"}, "pending is 'reinstall'"),
    "refspecs-not-a-list": ({"added_refspecs": {"origin": "HEAD"}}, "added_refspecs.origin is not a list"),
    "refspec-kind": ({"added_refspecs": {"origin": [["pull", "x"]]}}, "added_refspecs.origin is not a list"),
    "refspec-short": ({"added_refspecs": {"origin": [["push"]]}}, "added_refspecs.origin is not a list"),
    "refspec-value": ({"added_refspecs": {"origin": [["push", 1]]}}, "added_refspecs.origin is not a list"),
    "refspec-entry": ({"added_refspecs": {"origin": ["push"]}}, "added_refspecs.origin is not a list"),
    "server-key": ({"previous_server_config": {"core.editor": "vi"}}, "previous_server_config.core.editor"),
    "server-value": ({"previous_server_config": {"receive.fsckObjects": 1}}, "previous_server_config.receive"),
    "restoring-value": ({"restoring": {"receive.denyNonFastForwards": []}}, "restoring.receive"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_record_with_a_value_install_never_writes_is_refused_naming_it(h, repo, case):
    record, reason = REFUSED[case]
    path = repo / ".git" / "harness-install.json"
    path.write_text(json.dumps(record))
    config = (repo / ".git" / "config").read_bytes()
    for command in ("install", "uninstall"):
        r = h(command)
        assert r.code == 2 and "not a record `harness install` wrote" in r.err and reason in r.err, r.text
    assert (repo / ".git" / "config").read_bytes() == config and json.loads(path.read_text()) == record


def test_a_pending_record_is_undone_from_its_own_values_not_from_git_config(h, repo):
    git(repo, "remote", "add", "origin", str(repo.parent / "nowhere.git"))
    git(repo, "config", "notes.rewriteMode", "ignore")  # as a killed install left it: not the user's
    (repo / ".git" / "harness-install.json").write_text(json.dumps({
        "previous_rewrite_mode": "concatenate", "added_rewrite_ref": "refs/notes/harness", "pending": "install",
        "added_refspecs": {"origin": [["push", "HEAD"]]}, "previous_server_config": {"receive.fsckObjects": None}}))
    h.ok("uninstall")
    assert git(repo, "config", "--get-all", "notes.rewriteMode").stdout == "concatenate\n"
    assert git(repo, "config", "--get-all", "remote.origin.push", check=False).stdout == ""
