"""git's plumbing spelled otherwise (#28's task F-0062..F-0069, F-0073, F-0074): symlink index entries, refspecs and
this repository under other names, the notes ref through core.notesRef or HEAD, another revision's `.harness/` by
pathspec, through the index, through a link, by a patch or a change applied uncommitted — and the ordinary git
commands beside each, which stay allowed."""

from __future__ import annotations

import subprocess

import pytest

from support.agent_guard import guard_answer
from support.gitrepo import git

OID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
LEDGER = ".harness/tasks/T/events.jsonl"
NOTES = "refs/notes/harness"


def _write(repo, rel: str, text: str) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def history(h, repo):
    """main: a ledger of one line, then two (HEAD~1), then a source change (HEAD); `feature` changes source only,
    `older` takes the ledger's line out; old.patch puts HEAD~2's ledger back, fix.patch changes app.py only."""
    base = git(repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    _write(repo, LEDGER, '{"n": 1}\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one line")
    git(repo, "branch", "older")
    _write(repo, LEDGER, '{"n": 1}\n{"n": 2}\n')
    git(repo, "commit", "-qam", "two lines")
    _write(repo, "app.py", "def answer():\n    return 43\n")
    git(repo, "commit", "-qam", "source")
    git(repo, "checkout", "-q", "-b", "feature")
    _write(repo, "app.py", "def answer():\n    return 44\n")
    git(repo, "commit", "-qam", "feature")
    git(repo, "checkout", "-q", "older")
    _write(repo, LEDGER, "")
    git(repo, "commit", "-qam", "forgets")
    git(repo, "checkout", "-q", base)
    _write(repo, "old.patch", git(repo, "diff", "HEAD", "HEAD~2", "--", ".harness").stdout)
    _write(repo, "fix.patch", git(repo, "diff", "HEAD", "feature", "--", "app.py").stdout)
    return repo


def _tree_with_a_link(repo) -> str:
    """A tree (`git mktree`) holding `h`, a symlink to `../.harness`."""
    blob = _run_input(repo, ["hash-object", "-w", "--stdin"], "../.harness")
    return _run_input(repo, ["mktree"], f"120000 blob {blob}\th\n")


def _run_input(repo, args: list[str], text: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, input=text, capture_output=True, text=True,
                          check=True).stdout.strip()


# -- F-0062 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    f"git update-index --add --cacheinfo 0120000,{OID},h",
    f"git update-index --add --cacheinfo 0120000 {OID} h",
    f"git update-index --add --cacheinfo 120777,{OID},h",
    f"printf '120000 {OID}\\th\\n' | git update-index --index-info",
    "git read-tree --prefix=x/ TREE",
    "git read-tree -u --prefix=x/ TREE",
])
def test_f0062_a_symlink_index_entry_spelled_otherwise_is_refused(h, repo, command):
    """#28's task F-0062: git reads `--cacheinfo`'s mode as octal (`0120000` is a link), `--index-info` takes
    entries from stdin, and `read-tree --prefix=` puts a tree's links (a hex tree id too) in the index."""
    command = command.replace("TREE", _tree_with_a_link(repo))
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


# -- F-0063 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "git -c remote.o.url=/elsewhere -c 'remote.o.fetch=+refs/replace/*:refs/replace/*' fetch o",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.o.fetch GIT_CONFIG_VALUE_0='+refs/*:refs/*' git fetch o",
    "git remote add --mirror=fetch m /elsewhere",
    "git remote add --mirror m /elsewhere",
    "git pull --no-rebase /elsewhere '+refs/replace/*:refs/replace/*'",
])
def test_f0063_refspecs_set_for_a_run_by_a_mirror_or_on_a_pull_are_judged(h, repo, command):
    """#28's task F-0063: a remote's refspec set by `-c`/`GIT_CONFIG_*` or written by `remote add --mirror`, and
    `git pull`'s refspecs, are judged as `git fetch`'s are: a replace ref written by them is refused."""
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


# -- F-0064 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "git fetch file://REPO +HEAD:refs/notes/harness",
    "git fetch self +HEAD:refs/notes/harness",
    "git fetch mine +HEAD:refs/notes/harness",
    "git remote add me . && git fetch me +HEAD:refs/notes/harness",
    "git fetch -j 1 . +HEAD:refs/notes/harness",
    "git push --receive-pack git-receive-pack . +HEAD:refs/notes/harness",
    "git pull --no-rebase . +HEAD:refs/notes/harness",
])
def test_f0064_this_repository_under_another_name_is_this_repository(h, repo, command):
    """#28's task F-0064: a `file://` URL of this repository, a remote whose url is it (or cannot be read), the
    remote after an option's value, and `git pull` write the stamps' notes ref as `git fetch .` would."""
    git(repo, "remote", "add", "self", ".")
    git(repo, "remote", "add", "mine", f"file://{repo}")
    command = command.replace("REPO", str(repo))
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


# -- F-0065 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    f"git -c core.notesRef={NOTES} notes add -f -m forged HEAD",
    f"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.notesRef GIT_CONFIG_VALUE_0={NOTES} git notes add -f -m forged HEAD",
    f"git config core.notesRef {NOTES}",
    f"git -c notes.rewriteRef={NOTES} commit --amend -m x",
    f"git symbolic-ref HEAD {NOTES}",
    f"echo 'ref: {NOTES}' > .git/HEAD",
    f"echo 'ref: {NOTES}' > .git/refs/heads/x",
])
def test_f0065_the_notes_ref_through_core_notes_ref_or_head_is_refused(h, repo, command):
    """#28's task F-0065: `core.notesRef` (and `notes.rewriteRef`) set to the stamps' ref for a run or for good,
    and HEAD (or a branch) made to point at it, which the next commit or `reset --soft` moves."""
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


def test_f0065_a_configured_core_notes_ref_of_the_stamps_is_honoured(h, repo):
    """#28's task F-0065: with core.notesRef already the stamps' ref in the repository's config, a plain `git notes
    add` writes the stamps."""
    git(repo, "config", "core.notesRef", NOTES)
    assert guard_answer(repo, "Bash", {"command": "git notes add -f -m forged HEAD"}) == "deny"


# -- F-0067 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "git checkout HEAD~1 -- '*.jsonl'",
    "git checkout HEAD~1 -- :/",
    "git restore -s HEAD~1 ':(top).harness'",
    "git restore --source=HEAD~1 ':(glob)**/events.jsonl'",
    "git checkout HEAD~1 -- ':(icase).HARNESS'",
    "git checkout HEAD~1 -- '?harness'",
    "cd sub && git checkout HEAD~1 -- ':/.harness'",
])
def test_f0067_another_revision_by_pathspec_magic_or_a_git_glob_is_refused(h, repo, command):
    """#28's task F-0067: git's pathspecs are not the shell's globs: `*` and `?` match `/` and a leading dot,
    `:/` is the whole tree, `:(top)` the top from any folder, `:(icase)` any case."""
    (repo / "sub").mkdir()
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["git checkout HEAD~1 -- '.harness/local/*.txt'",
                                     "git restore -s HEAD~1 '.harness/local/cache-*'"])
def test_a_glob_under_the_clones_local_state_is_not_the_record(h, repo, command):
    """#27's task F-0035: .harness/local/ is untracked per-clone state, not the record (its exemption was spelled
    `.harness/.harness/local/`)."""
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


@pytest.mark.parametrize("command", ["cd .harness/local/up && git checkout HEAD~1 -- 't*'",
                                     "git -C .harness/local/up checkout HEAD~1 -- 't*'",
                                     "cd .harness/local && git checkout HEAD~1 -- 'up/t*'"])
def test_a_glob_from_a_folder_under_the_local_state_is_judged_as_naming_the_record(h, repo, command):
    """#27's task F-0036: git works in the real folder; `.harness/local/up` may be a link to `.harness` (made
    by a program the guard does not read), so from inside .harness/ a glob is the record's."""
    (repo / ".harness/local").mkdir(parents=True, exist_ok=True)
    (repo / ".harness/local/up").symlink_to("..")
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["git checkout b -- ':(top).harness/local/v*'",
                                     "git checkout b -- ':/.harness/local/*d'",
                                     "git restore -s b ':(top,icase).HARNESS/LOCAL/VALID'",
                                     "git checkout b -- ':(top).harness/local/valid'"])
def test_the_cache_of_valid_documents_by_pathspec_magic_is_refused(h, repo, command):
    """#27's task F-0044: `.harness/local/valid` is guarded (F-0149); the exemption of globs under .harness/local/
    did not know it, and magic hid the literal path from the rule that does."""
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


# -- F-0068 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "git read-tree HEAD~1",
    "git read-tree HEAD~1 && git checkout -- .harness",
    "git reset HEAD~1 -- .harness",
    "git reset -q HEAD~1 .harness/tasks",
    "git reset HEAD~1 -- '*.jsonl'",
    "git checkout-index -f .ha*ss/tasks/T/events.jsonl",
])
def test_f0068_the_index_filled_from_another_revision_is_refused(h, repo, command):
    """#28's task F-0068: `git checkout -- FILE` (the harness's own repair hint) reads the index, so filling the
    index from another revision (`read-tree REV`, `reset REV -- PATH`) is refused; checkout-index's operands
    are judged as globs too."""
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


# -- F-0069 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "git checkout-index -a -f --prefix=LINK/",
    "git checkout-index -f --prefix=LINK/ .harness/tasks/T/events.jsonl",
    'ln -s "$PWD" OUT/top2 && git checkout-index -f --prefix=OUT/top2/ .harness/tasks/T/events.jsonl',
    "git checkout-index -f --prefix=.harnes s/tasks/T/events.jsonl",
])
def test_f0069_checkout_index_prefix_leading_back_into_the_record_is_refused(h, repo, tmp_path, command):
    """#28's task F-0069: `--prefix=` is judged by where it lands: a folder outside the repository that is a
    link back into it, one whose real path cannot be known (a link made on the same line), and a prefix that
    spells the record's name together with the path (`.harnes` + `s/…`)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "top").symlink_to(repo)
    command = command.replace("LINK", str(out / "top")).replace("OUT", str(out))
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


# -- F-0073 (its first case) ---------------------------------------------------------------------

@pytest.mark.parametrize("command", ["git checkout-index -a --prefix=export/",
                                     "git checkout-index --all -f --prefix=build/export/"])
def test_f0073_checkout_index_of_everything_into_a_work_tree_folder_is_allowed(h, repo, command):
    """#28's task F-0073: git-checkout-index(1)'s export recipe into a folder of the work tree writes
    `export/.harness/…`, no record: judged by PREFIX + `.harness`, not by `-a` alone."""
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


@pytest.mark.parametrize("command", ["git checkout-index -a -f", "git checkout-index -a --prefix=./",
                                     "git checkout-index -a --prefix=$OUT/"])
def test_checkout_index_of_everything_over_the_top_stays_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


# -- F-0074 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "git diff HEAD HEAD~2 -- .harness | git apply",
    "git diff HEAD~2 HEAD | git apply -R",
    "git apply old.patch",
    "git apply --index old.patch",
    "patch -p1 < old.patch",
    "git diff HEAD HEAD~2 > p.patch && git apply p.patch",
    "git revert -n HEAD~1",
    "git cherry-pick -n older",
    "git merge --no-commit older",
    "git merge --squash older",
])
def test_f0074_a_patch_or_a_change_applied_uncommitted_that_takes_ledger_lines_out_is_refused(history, command):
    """#28's task F-0074: `git apply`/`patch` of a patch that names `.harness/` (or that the guard cannot read:
    stdin, a file written on the same line), and `revert -n`, `cherry-pick -n`, `merge --no-commit`/`--squash`
    whose change takes lines out of the ledger, put older records back with no commit to see it."""
    assert guard_answer(history, "Bash", {"command": command}) == "deny", command


def test_f0074_a_stash_that_takes_ledger_lines_out_is_refused(history):
    """#28's task F-0074: `git stash apply`/`pop` of a stash whose ledger is shorter than its base's."""
    _write(history, LEDGER, '{"n": 1}\n')
    git(history, "stash", "-q")
    for command in ("git stash apply", "git stash pop", "git stash apply stash@{0}", "git stash pop 0"):
        assert guard_answer(history, "Bash", {"command": command}) == "deny", command


# -- the neighbours, allowed ---------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "git fetch origin", "git pull", "git pull origin main", "git pull --rebase", "git fetch -j 4 origin",
    "git push origin HEAD", "git fetch origin refs/notes/harness:refs/notes/harness",
    "git push origin refs/notes/harness", "git remote add upstream https://example.com/x.git",
    "git remote add --mirror=push backup /elsewhere", "git -c 'remote.o.fetch=+refs/heads/*:refs/remotes/o/*' fetch o",
    "git notes add -m x HEAD", "git notes --ref=review add -m x HEAD",
    "git -c core.notesRef=refs/notes/review notes add -m x HEAD", "git config core.notesRef refs/notes/review",
    "git symbolic-ref HEAD refs/heads/main", "git symbolic-ref HEAD", "cat .git/HEAD",
    "git update-index --add app.py", f"git update-index --add --cacheinfo 100644,{OID},notes.txt",
    "git update-index --chmod=+x app.py", "git read-tree HEAD",
])
def test_ordinary_remotes_notes_and_index_commands_stay_allowed(h, repo, command):
    git(repo, "remote", "add", "origin", "/elsewhere/origin.git")
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


@pytest.mark.parametrize("command", [
    "git checkout -- app.py", "git restore app.py", "git checkout HEAD~1 -- src/", "git checkout HEAD~1 -- 'src/*.py'",
    "git restore -s HEAD~1 ':(top)app.py'", "git checkout HEAD~1 -- ':(exclude).harness' src",
    f"git checkout -- {LEDGER}", f"git restore {LEDGER}", f"git checkout HEAD -- {LEDGER}",
    "git reset HEAD~1", "git reset --hard HEAD", "git reset -- .harness", "git reset HEAD~1 -- app.py",
    "git checkout-index -f app.py", "git checkout-index -a -f --prefix=OUT/export/",
    "git apply fix.patch", "git apply --check old.patch", "git apply --stat old.patch", "patch -p1 < fix.patch",
    "git revert HEAD", "git revert HEAD~1", "git revert -n HEAD", "git cherry-pick feature", "git cherry-pick -n feature",
    "git merge --no-commit feature", "git merge older",
])
def test_ordinary_checkouts_patches_and_reverts_stay_allowed(history, tmp_path, command):
    command = command.replace("OUT", str(tmp_path / "out"))
    assert guard_answer(history, "Bash", {"command": command}) == "allow", command


def test_a_stash_of_source_or_of_appended_ledger_lines_pops_again(history):
    """`git stash` while the harness has appended to the ledger, then `git stash pop`: the lines come back."""
    _write(history, "app.py", "x = 1\n")
    _write(history, LEDGER, '{"n": 1}\n{"n": 2}\n{"n": 3}\n')
    git(history, "stash", "-q")
    for command in ("git stash pop", "git stash apply", "git stash apply stash@{0}"):
        assert guard_answer(history, "Bash", {"command": command}) == "allow", command
