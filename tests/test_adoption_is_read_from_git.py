"""Where the harness was adopted, asked of git alone (harness.gitio.adoption): the earliest commit of a revision's
whole history that holds .harness/config.yaml; none on an unborn branch or a history without one; and a history git
cannot read is refused in words, never taken for "no adoption" (which would exempt every command)."""

from __future__ import annotations

import subprocess

import pytest

from harness.errors import HarnessError
from harness.gitio.adoption import first_holding

from support.gitrepo import commit_all_ok, commit_ok, forge_commit_graph_parent, git, head


def test_the_earliest_commit_holding_config_yaml_is_the_adoption(h, repo):
    assert first_holding(repo, "HEAD") is None  # the fixture's commits hold no .harness/ yet
    adoption = commit_all_ok(repo, "adopt")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    commit_all_ok(repo, "code")
    assert first_holding(repo, "HEAD") == adoption


def test_an_unborn_branch_has_no_adoption(h, repo):
    git(repo, "checkout", "-q", "--orphan", "nothing-yet")
    assert first_holding(repo, "HEAD") is None


def test_a_history_git_cannot_read_is_refused(h, repo):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    first = head(repo)
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    commit_all_ok(repo, "code")
    loose = repo / ".git" / "objects" / first[:2] / first[2:]
    loose.unlink()  # the first commit's object gone: a damaged clone
    with pytest.raises(HarnessError, match="cannot read the history"):
        first_holding(repo, "HEAD")


def _merge(repo, tree_of: str, *parents: str) -> str:
    """A merge commit of ``parents`` (in that order) holding ``tree_of``'s tree, made without checking it out."""
    args = [a for p in parents for a in ("-p", p)]
    return git(repo, "commit-tree", f"{tree_of}^{{tree}}", *args, "-m", "merge").stdout.strip()


def test_a_side_line_that_added_config_yaml_itself_is_not_taken_for_the_adoption(h, repo):
    """Read 54's F-0109: a line begun before the adoption adds .harness/ with its own commands, drops it again and
    is merged as the first parent. Its addition sorts first; taking it for the adoption vouched for its commands."""
    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    git(repo, "checkout", "-q", "-b", "side", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "side: adopt on a line of its own")
    git(repo, "rm", "-r", "-q", "--cached", ".harness")
    dropped = commit_ok(repo, "side: drop it again")
    merge = _merge(repo, adoption, dropped, adoption)
    with pytest.raises(HarnessError, match="cannot tell where this history adopted the harness") as refused:
        first_holding(repo, merge)
    assert "harness task new" in refused.value.hint


@pytest.mark.parametrize("feature_first", [True, False], ids=["feature-line-first", "main-line-first"])
def test_a_line_begun_before_the_adoption_and_merged_after_it_leaves_the_adoption_where_it_was(h, repo, feature_first):
    """What a careless guard would refuse: a feature begun before the harness came, merged (either way round)
    after the adoption and an edit of config.yaml. Only the adoption's descendants change config.yaml."""
    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text() + "# edited after the adoption\n")
    edited = commit_all_ok(repo, "config edited")
    git(repo, "checkout", "-q", "-b", "feature", pre)
    (repo / "feature.py").write_text("FEATURE = 1\n")
    git(repo, "add", "feature.py")
    feature = commit_ok(repo, "feature")
    git(repo, "checkout", "-q", "-f", "main")
    merge = _merge(repo, edited, *((feature, edited) if feature_first else (edited, feature)))
    assert first_holding(repo, merge) == adoption


def _adoption_and_a_side_one(repo) -> tuple[str, str]:
    """The adoption on HEAD's line, a commit after it, and a line begun before it that adopted the harness itself."""
    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    commit_all_ok(repo, "code")
    git(repo, "checkout", "-q", "-b", "side", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    side = commit_all_ok(repo, "side: adopt on a line of its own")
    git(repo, "checkout", "-q", "-f", "-")
    return adoption, side


def test_a_forged_commit_graph_does_not_move_the_adoption(h, repo):
    """Read 56a's F-0120: git takes parents from .git/objects/info/commit-graph unchecked; one in which the real
    adoption's parent is a side commit that added .harness/ itself made that commit the adoption."""
    adoption, side = _adoption_and_a_side_one(repo)
    forge_commit_graph_parent(repo, adoption, side)
    assert git(repo, "log", "-1", "--format=%P", adoption).stdout.split() == [side]  # plain git reads the forgery
    assert first_holding(repo, "HEAD") == adoption


@pytest.mark.parametrize("where", ["info-grafts", "GIT_GRAFT_FILE"])
def test_a_graft_does_not_move_the_adoption(h, repo, tmp_path, monkeypatch, where):
    """Read 63a's F-0155: git applies grafts whatever replace refs and the commit-graph say, from .git/info/grafts
    or the file GIT_GRAFT_FILE names; one making the real adoption's parent a side adoption moved it there."""
    adoption, side = _adoption_and_a_side_one(repo)
    if where == "info-grafts":
        (repo / ".git/info").mkdir(exist_ok=True)
        (repo / ".git/info/grafts").write_text(f"{adoption} {side}\n")
    else:
        (tmp_path / "grafts").write_text(f"{adoption} {side}\n")
        monkeypatch.setenv("GIT_GRAFT_FILE", str(tmp_path / "grafts"))
    assert git(repo, "log", "-1", "--format=%P", adoption).stdout.split() == [side]  # plain git reads the graft
    assert first_holding(repo, "HEAD") == adoption


@pytest.mark.parametrize("variable", ["GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_ICASE_PATHSPECS",
                                      "GIT_NOGLOB_PATHSPECS"])
def test_a_pathspec_variable_does_not_hide_the_adoption(h, repo, monkeypatch, variable):
    """Read 63a's F-0157: with GIT_LITERAL_PATHSPECS=1 `:(top,literal).harness/config.yaml` named a file no commit
    holds, and no adoption meant "this change adopts"."""
    adoption = commit_all_ok(repo, "adopt")
    monkeypatch.setenv(variable, "1")
    assert first_holding(repo, "HEAD") == adoption


def test_the_harness_s_git_turns_the_commit_graph_off_after_the_caller_s_own_settings(monkeypatch):
    from harness.gitio.environment import git_env, own_env

    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'core.commitgraph'='true' 'user.name'='someone'")
    env = git_env()
    assert env["GIT_CONFIG_PARAMETERS"].startswith("'core.commitgraph'='true' 'user.name'='someone' ")
    assert env["GIT_CONFIG_PARAMETERS"].endswith("'core.commitgraph'='false'")
    assert own_env()["GIT_CONFIG_PARAMETERS"] == "'core.commitgraph'='false'"  # the caller's are not the measurer's
    value = subprocess.run(["git", "config", "--get-all", "core.commitgraph"], env=env, capture_output=True,
                           text=True).stdout.split()
    assert value[-1] == "false"


REFS = ("--branches", "--remotes")


def _published(repo, tmp_path) -> None:
    """A bare remote holding the current branch, and its remote-tracking ref here."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "--no-verify", "origin", "HEAD")
    git(repo, "fetch", "-q", "origin")


def test_the_working_tree_s_adoption_is_read_from_what_is_published_not_only_the_head_the_agent_points(h, repo,
                                                                                                     tmp_path):
    """Read 56a's F-0119: HEAD moved (`reset --soft`, `checkout`) to a line begun before the adoption that added
    .harness/ itself and was never merged: HEAD's history alone names that line's commit. With the remote-tracking
    refs read too, the published adoption is a second candidate, and the two are no one adoption."""
    from harness.store.source import FsSource

    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    _published(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "side", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    own = commit_all_ok(repo, "side: adopt on a line of its own")
    assert first_holding(repo, "HEAD") == own  # a commit's own history: what push and CI judge it by
    with pytest.raises(HarnessError, match="cannot tell where this history adopted the harness"):
        FsSource(repo).adoption()


def test_a_local_trial_branch_that_ran_init_itself_does_not_refuse_the_adoption_head_holds(h, repo, tmp_path):
    """Read 57's F-0125, what a careless guard refuses: an old branch that tried `harness init` on its own, never
    merged, beside main's adoption (a local repository, and one that publishes main)."""
    from harness.store.source import FsSource

    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    git(repo, "checkout", "-q", "-b", "try-harness", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "trying the harness")
    git(repo, "checkout", "-q", "-f", "-")
    assert FsSource(repo).adoption().commit == adoption
    _published(repo, tmp_path)
    assert FsSource(repo).adoption().commit == adoption


def test_an_unborn_head_does_not_hide_the_adoption_its_branches_hold(h, repo):
    from harness.store.source import FsSource

    adoption = commit_all_ok(repo, "adopt")
    git(repo, "checkout", "-q", "--orphan", "nothing-yet")
    assert first_holding(repo, "HEAD") is None
    assert first_holding(repo, "HEAD", REFS) == adoption
    assert FsSource(repo).adoption().commit == adoption


def test_an_unmerged_branch_begun_before_the_adoption_leaves_it_where_it_was(h, repo):
    """What a careless guard would refuse: any other branch without .harness/ (begun before the adoption, not
    merged) adds no candidate."""
    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    git(repo, "branch", "old-feature", pre)
    git(repo, "checkout", "-q", "old-feature")
    (repo / "feature.py").write_text("FEATURE = 1\n")
    git(repo, "add", "feature.py")
    commit_ok(repo, "feature")
    git(repo, "checkout", "-q", "-f", "-")
    assert first_holding(repo, "HEAD", REFS) == adoption


def test_the_commits_a_push_brings_are_listed_by_their_stored_parents_not_a_forged_commit_graph(h, repo):
    """Read 57's F-0124: libgit2's walk took parents from the commit-graph, so a pushed commit could vanish from
    the push guard's list (B, holding a secret, hidden behind C whose forged parent is the pushed A)."""
    from harness.gitio.git import Git

    pushed = head(repo)
    (repo / "app.py").write_text("TOKEN = 'written, then removed'\n")
    hidden = commit_all_ok(repo, "b")
    (repo / "app.py").write_text("def answer():\n    return 42\n")
    tip = commit_all_ok(repo, "c")
    forge_commit_graph_parent(repo, tip, pushed)
    assert git(repo, "log", "-1", "--format=%P", tip).stdout.split() == [pushed]  # plain git reads the forgery
    assert Git(repo).rev_list([tip], [pushed]) == [hidden, tip]


def test_a_pushed_trial_branch_that_ran_init_itself_does_not_refuse_the_adoption_head_holds(h, repo, tmp_path):
    """Read 58's F-0130, what a careless guard refuses: a teammate's trial of `harness init`, pushed to the shared
    remote as its own branch: a remote-tracking ref, but not of HEAD's line."""
    from harness.store.source import FsSource

    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    _published(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "try-harness", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "trying the harness")
    git(repo, "push", "-q", "--no-verify", "origin", "try-harness")
    git(repo, "fetch", "-q", "origin")
    git(repo, "checkout", "-q", "-f", "-")
    git(repo, "branch", "-q", "-D", "try-harness")
    assert git(repo, "rev-parse", "-q", "--verify", "refs/remotes/origin/try-harness").returncode == 0
    assert FsSource(repo).adoption().commit == adoption


def test_a_side_line_s_own_adoption_is_refused_when_the_project_s_line_has_another_name(h, repo, tmp_path):
    """Read 59's F-0136: a project on `develop`, pushed with `-u` (no remote HEAD: the repository was not cloned);
    the agent's new branch from before the adoption matched no `main`, `master` or branch of its name."""
    from harness.store.source import FsSource

    pre = head(repo)
    git(repo, "checkout", "-q", "-b", "develop")
    adoption = commit_all_ok(repo, "adopt")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "develop")
    for other in ("main", "master"):
        git(repo, "branch", "-q", "-D", other, check=False)
    git(repo, "checkout", "-q", "-b", "side", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "side: adopt on a line of its own")
    with pytest.raises(HarnessError, match="cannot tell where this history adopted the harness"):
        FsSource(repo).adoption()


def _upstream_gone(repo, branch: str) -> None:
    """``branch`` tracking origin/<branch>, a ref this clone does not have (pruned, or never pushed)."""
    git(repo, "branch", "-q", branch)
    git(repo, "config", f"branch.{branch}.remote", "origin")
    git(repo, "config", f"branch.{branch}.merge", f"refs/heads/{branch}")


def test_an_upstream_whose_ref_is_gone_names_nothing(h, repo, tmp_path):
    """Read 60's F-0138, F-0139: a configured upstream whose ref is gone failed the history read: the gate was
    INVALID on a born HEAD, and an unborn HEAD (an orphan branch) counted as the adoption itself."""
    from harness.store.source import FsSource

    adoption = commit_all_ok(repo, "adopt")
    git(tmp_path, "init", "-q", "--bare", str(tmp_path / "remote.git"))
    git(repo, "remote", "add", "origin", str(tmp_path / "remote.git"))
    _upstream_gone(repo, "merged-feature")
    assert FsSource(repo).adoption().commit == adoption
    git(repo, "checkout", "-q", "--orphan", "nothing-yet")
    assert FsSource(repo).adoption().commit == adoption


def test_checking_out_a_teammate_s_trial_branch_does_not_refuse_the_adoption_main_holds(h, repo, tmp_path):
    """Read 60's F-0140, what a careless guard refuses: `git checkout try-harness` makes a branch tracking a pushed
    trial of `harness init`; main, published, is HEAD's line."""
    from harness.store.source import FsSource

    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    _published(repo, tmp_path)
    main = git(repo, "symbolic-ref", "--short", "HEAD").stdout.strip()
    git(repo, "checkout", "-q", "-b", "try-harness", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "trying the harness")
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "try-harness")
    git(repo, "checkout", "-q", "-f", main)
    assert FsSource(repo).adoption().commit == adoption


@pytest.mark.parametrize("tracking", ["pushed-with-u", "a-local-branch"])
def test_a_side_branch_with_an_upstream_of_its_own_does_not_hide_the_project_s_line(h, repo, tmp_path, tracking):
    """Read 61's F-0145: F-0136's case (a line named `develop`, pushed with `-u`), the agent's side branch given an
    upstream of its own: pushed with `-u`, or tracking a local branch at the commit it started from."""
    from harness.store.source import FsSource

    pre = head(repo)
    git(repo, "checkout", "-q", "-b", "develop")
    adoption = commit_all_ok(repo, "adopt")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "develop")
    for other in ("main", "master"):
        git(repo, "branch", "-q", "-D", other, check=False)
    git(repo, "branch", "-q", "base", pre)
    git(repo, "checkout", "-q", "-b", "side", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "side: adopt on a line of its own")
    if tracking == "pushed-with-u":
        git(repo, "push", "-q", "--no-verify", "-u", "origin", "side")
    else:
        git(repo, "branch", "-q", "-u", "base")
    with pytest.raises(HarnessError, match="cannot tell where this history adopted the harness"):
        FsSource(repo).adoption()


def _develop_team(repo, tmp_path) -> tuple[str, str]:
    """A team on `develop` (no main, master or remote HEAD), pushed with `-u`; (its adoption, the commit before it)."""
    pre = head(repo)
    git(repo, "checkout", "-q", "-b", "develop")
    adoption = commit_all_ok(repo, "adopt")
    git(tmp_path, "init", "-q", "--bare", str(tmp_path / "remote.git"))
    git(repo, "remote", "add", "origin", str(tmp_path / "remote.git"))
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "develop")
    for other in ("main", "master"):
        git(repo, "branch", "-q", "-D", other, check=False)
    return adoption, pre


def test_without_a_default_line_a_side_upstream_does_not_hide_develop_once_its_branch_is_gone(h, repo, tmp_path):
    """Read 62's F-0150: the agent pushed its side branch with `-u` and deleted the local `develop`: local branches
    and what they track are the agent's, so without a default line every published ref is read."""
    from harness.store.source import FsSource

    adoption, pre = _develop_team(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "side", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "side: adopt on a line of its own")
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "side")
    git(repo, "branch", "-q", "-D", "develop")
    with pytest.raises(HarnessError, match="cannot tell where this history adopted the harness"):
        FsSource(repo).adoption()


def test_without_a_default_line_a_published_trial_refuses_until_the_line_is_named(h, repo, tmp_path):
    """Read 62's F-0151: a teammate's trial of `harness init` on the remote is a rival while nothing says which line
    is the project's; the refusal says how to name it, and named, the adoption is the line's."""
    from harness.store.source import FsSource

    adoption, pre = _develop_team(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "try-harness", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "trying the harness")
    git(repo, "push", "-q", "--no-verify", "-u", "origin", "try-harness")
    git(repo, "checkout", "-q", "-f", "develop")
    with pytest.raises(HarnessError) as refused:
        FsSource(repo).adoption()
    assert "git remote set-head origin" in refused.value.hint
    git(repo, "remote", "set-head", "origin", "develop")
    assert FsSource(repo).adoption().commit == adoption


def test_a_detached_head_reads_no_local_branch_as_published(h, repo, tmp_path):
    """F-0152, what a careless lookup refuses: a detached HEAD (a CI checkout, a bisect) has no branch, and the
    published line read every ref in its place, a local trial of `harness init` among them."""
    from harness.gitio.adoption import published_line
    from harness.store.source import FsSource

    pre = head(repo)
    adoption = commit_all_ok(repo, "adopt")
    _published(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "try-harness", pre)
    git(repo, "checkout", adoption, "--", ".harness")
    commit_all_ok(repo, "trying the harness")
    git(repo, "checkout", "-q", "-f", "--detach", adoption)
    assert not [ref for ref in published_line(repo) if not ref.startswith("refs/remotes/")]
    assert FsSource(repo).adoption().commit == adoption


def test_another_project_s_remote_is_not_this_project_s_line(h, repo, tmp_path):
    """Read 63a's F-0158: a vendored library's remote, whose own history adopted the harness, was read as the
    published line, and this project's adopting change was judged against the library's commands."""
    from harness.store.source import FsSource

    vendor = tmp_path / "vendor"
    git(tmp_path, "init", "-q", "-b", "main", str(vendor))
    (vendor / "lib.txt").write_text("lib\n")
    git(vendor, "add", "-A")
    git(vendor, "commit", "-qm", "lib")
    git(vendor, "checkout", "-q", "-b", "adopting")  # a line of its own, with .harness/
    (vendor / ".harness").mkdir()
    (vendor / ".harness/config.yaml").write_text("version: 1\n")
    git(vendor, "add", "-A")
    git(vendor, "commit", "-qm", "the library adopts the harness")
    git(vendor, "checkout", "-q", "-B", "main")
    git(repo, "add", "-A")
    git(repo, "rm", "-r", "-q", "--cached", "--ignore-unmatch", ".harness")
    git(repo, "commit", "-q", "--allow-empty", "-m", "this project, no harness committed yet")
    _published(repo, tmp_path)
    git(repo, "branch", "-q", "--set-upstream-to", f"origin/{git(repo, 'branch', '--show-current').stdout.strip()}")
    git(repo, "remote", "add", "vendor", str(vendor))
    git(repo, "fetch", "-q", "vendor")
    assert FsSource(repo).adoption() is None  # this change adopts the harness
