"""`harness install` adds its notes settings beside the user's own, and `uninstall` puts theirs back."""

from __future__ import annotations

from support.gitrepo import git


def _get_all(repo, key: str) -> list[str]:
    return git(repo, "config", "--get-all", key, check=False).stdout.split()


def test_install_keeps_existing_rewrite_settings_and_uninstall_restores_them(h, repo):
    git(repo, "config", "--add", "notes.rewriteRef", "refs/notes/commits")
    git(repo, "config", "--add", "notes.rewriteRef", "refs/notes/review")
    git(repo, "config", "notes.rewriteMode", "concatenate")
    h.ok("install")
    assert _get_all(repo, "notes.rewriteRef") == ["refs/notes/commits", "refs/notes/review", "refs/notes/harness"]
    assert _get_all(repo, "notes.rewriteMode") == ["ignore"]
    h.ok("install")  # idempotent: nothing added twice, the user's mode still remembered
    assert _get_all(repo, "notes.rewriteRef").count("refs/notes/harness") == 1
    h.ok("uninstall")
    assert _get_all(repo, "notes.rewriteRef") == ["refs/notes/commits", "refs/notes/review"]
    assert _get_all(repo, "notes.rewriteMode") == ["concatenate"]


def test_uninstall_without_prior_settings_leaves_none(h, repo):
    h.ok("install")
    h.ok("uninstall")
    assert _get_all(repo, "notes.rewriteRef") == [] and _get_all(repo, "notes.rewriteMode") == []


def test_install_finishes_beside_a_config_yaml_with_a_bad_redaction_pattern(h, repo):
    # The notes ref is read as the hooks read it: another problem in config.yaml is for the
    # commands that use it to report, not a reason to leave the install half done.
    path = repo / ".harness/config.yaml"
    path.write_text(path.read_text().replace("patterns: []", 'patterns: ["(unclosed"]'))
    r = h("install")
    assert r.code == 0, r.text
    assert git(repo, "config", "--get-all", "notes.rewriteRef").stdout.split() == ["refs/notes/harness"]
