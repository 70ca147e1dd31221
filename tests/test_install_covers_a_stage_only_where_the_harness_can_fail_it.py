"""`harness install` beside a hook of the user's counts a stage as covered only where the harness's refusal can
stop it (F-0418, F-0419, F-0420): a hook's `harness hook run <stage>` line must decide the hook's exit status; a
dispatcher at a stage git feeds stdin must give the harness the same lines as every other file; and a script
that reads its own path in Node's, Ruby's or Perl's way is never renamed. Otherwise install refuses, changes
nothing, and names the line (and where it goes). Real repositories, real commits and pushes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from support.flows import hand_done_no_verify
from support.gitrepo import commit_all_ok, git, out, push, pushed_to_bare, refused_commit
from support.records import set_config

pytestmark = pytest.mark.e2e  # commits and pushes through the hooks install leaves

SHIM = "engineering-harness native hook shim"
LINE = 'harness hook run pre-commit "$@"'


def _executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def _state(repo_git: Path) -> dict:
    """What an install may change: every file under the hooks folder, git config, the install record."""
    folder = repo_git / "hooks"
    return {"files": {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
                      if p.is_file()},
            "config": (repo_git / "config").read_bytes(), "record": (repo_git / "harness-install.json").exists()}


def _harness_on_path(monkeypatch) -> None:
    """The user's own hook calls `harness` by name: as one installed for this user would be found."""
    monkeypatch.setenv("PATH", os.environ["PATH"] + os.pathsep + str(Path(sys.executable).parent))


# -- F-0418: the harness line must decide the hook's exit status -----------------------------------------

@pytest.mark.parametrize(("hook", "named"), [
    (f'#!/bin/sh\n{LINE}\necho "lint done" >&2\n', LINE),
    (f"#!/bin/sh\n{LINE} || true\n", f"{LINE} || true"),
    ('#!/bin/sh\necho "the harness: harness hook run pre-commit is run by CI" >&2\n', "echo"),
    (f"#!/bin/sh\ncat >&2 <<EOF\n{LINE}\nEOF\n", LINE),
    (f"#!/bin/sh\nexit 0\n{LINE}\n", "exit 0"),
    (f'#!/bin/sh\nif [ -n "$CI" ]; then\n{LINE}\nfi\n', LINE),
    (f"#!/bin/sh\nrun() {{\n  {LINE} || exit $?\n}}\necho skipped >&2\n", LINE),
], ids=["line-on-top", "or-true", "words-in-an-echo", "in-a-heredoc", "after-exit-0", "inside-an-if",
        "in-a-function-never-called"])
def test_install_refuses_a_hook_whose_harness_line_cannot_fail_it_and_changes_nothing(h, repo, hook, named):
    hooks = repo / ".git" / "hooks"
    _executable(hooks / "pre-commit", hook)
    before = _state(repo / ".git")
    r = h("install")
    assert r.code == 1, r.text
    assert str(hooks / "pre-commit") in r.err and named in r.err and "need not fail the hook" in r.err, r.err
    assert LINE in r.err and "last line" in r.err and "|| exit $?" in r.err, r.err
    assert _state(repo / ".git") == before


def test_a_hook_reading_its_name_refused_says_where_the_line_goes_at_every_stage(h, repo):
    hooks = repo / ".git" / "hooks"
    _executable(hooks / "pre-commit", '#!/bin/sh\necho "checks of $(basename "$0")" >&2\n')
    r = h("install")
    assert r.code == 1 and LINE in r.err, r.text
    assert "last line" in r.err and "|| exit $?" in r.err, r.err  # not only for the stdin stages


@pytest.mark.parametrize("hook", [
    f'#!/bin/sh\necho "checks of $(basename "$0")" >&2\n{LINE}\n',
    f"#!/bin/sh\nexec {LINE}\n",
    f'#!/bin/sh\n[ -x /bin/sh ] || exit 1\n{LINE} || exit $?\necho "checked by $(basename "$0")" >&2\n',
    f"#!/bin/sh\n# runs the harness last\n{LINE}  # the harness's verdict is the hook's\n\n",
], ids=["last-line", "exec", "or-exit-then-more", "trailing-comment"])
def test_a_hook_whose_harness_failure_fails_it_is_still_left_alone_and_refuses_the_commit(h, repo, monkeypatch,
                                                                                         hook):
    hooks = repo / ".git" / "hooks"
    _executable(hooks / "pre-commit", hook)
    r = h("install")
    assert r.code == 0 and "pre-commit hook runs the harness itself" in r.out, r.text
    assert (hooks / "pre-commit").read_text() == hook and not (hooks / "pre-commit.pre-harness").exists()
    _harness_on_path(monkeypatch)
    commit_all_ok(repo, "harness init")
    set_config(repo, "not: [valid\n")
    git(repo, "add", "-A")
    assert "config.yaml" in refused_commit(repo, "a broken config")


# -- F-0419: a dispatcher at a stdin stage must give the harness the refs too -----------------------------

PLAIN_DISPATCHER = '#!/bin/sh\nfor f in "$0.d"/*; do\n  [ -x "$f" ] || continue\n  "$f" "$@" || exit $?\ndone\n'
SHARING_DISPATCHER = ("#!/bin/sh\ndata=$(cat)\nfor f in \"$0.d\"/*; do\n  [ -x \"$f\" ] || continue\n"
                      "  printf '%s\\n' \"$data\" | \"$f\" \"$@\" || exit $?\ndone\n")
READS_THE_REFS = "#!/bin/sh\n# reads the refs, as `git lfs pre-push` does\nwhile read -r l; do :; done\n"


@pytest.mark.parametrize("stage", ["pre-push", "post-rewrite"])
def test_install_refuses_a_dispatcher_that_does_not_share_stdin_at_a_stdin_stage(h, repo, stage):
    hooks = repo / ".git" / "hooks"
    _executable(hooks / stage, PLAIN_DISPATCHER)
    _executable(hooks / f"{stage}.d" / "10-lfs", READS_THE_REFS)
    before = _state(repo / ".git")
    r = h("install")
    assert r.code == 1, r.text
    assert str(hooks / stage) in r.err and "same stdin" in r.err and "data=$(cat)" in r.err, r.err
    assert _state(repo / ".git") == before


def test_a_dispatcher_sharing_stdin_still_gets_the_shim_and_the_push_guard_sees_the_refs(h, repo, tmp_path):
    pushed_to_bare(repo, tmp_path)
    hooks = repo / ".git" / "hooks"
    _executable(hooks / "pre-push", SHARING_DISPATCHER)
    _executable(hooks / "pre-push.d" / "10-lfs", READS_THE_REFS)
    r = h("install")
    assert r.code == 0 and "pre-push.d/harness" in r.out, r.text
    assert SHIM in (hooks / "pre-push.d" / "harness").read_text()
    tid, forged = hand_done_no_verify(repo, h)
    p = push(repo, "origin", "main")
    assert p.returncode != 0 and forged[:12] in out(p) and f".harness/tasks/{tid}/" in out(p), out(p)


def test_a_plain_dispatcher_at_a_stage_without_stdin_still_gets_the_shim(h, repo):
    hooks = repo / ".git" / "hooks"
    _executable(hooks / "post-commit", PLAIN_DISPATCHER)
    (hooks / "post-commit.d").mkdir()
    r = h("install")
    assert r.code == 0 and "post-commit.d/harness" in r.out, r.text


# -- F-0420: a script reading its own path in other languages' ways ---------------------------------------

@pytest.mark.parametrize(("hook", "reads"), [
    ("#!/usr/bin/env node\nconst name = require('path').basename(process.argv[1]);\n", "process.argv[1]"),
    ("#!/usr/bin/env node\nconst here = new URL('.', import.meta.url);\n", "import.meta.url"),
    ("#!/usr/bin/env node\nconsole.log(import.meta.dirname);\n", "import.meta.dirname"),
    ("#!/usr/bin/env ruby\nload File.join(__dir__, 'lib.rb')\n", "__dir__"),
    ("#!/usr/bin/env perl\nuse FindBin;\nrequire \"$FindBin::Bin/lib.pl\";\n", "FindBin"),
], ids=["node-argv1", "node-import-meta-url", "node-import-meta-dirname", "ruby-dir", "perl-findbin"])
def test_install_refuses_to_rename_a_script_reading_its_own_path_and_changes_nothing(h, repo, hook, reads):
    hooks = repo / ".git" / "hooks"
    _executable(hooks / "pre-commit", hook)
    before = _state(repo / ".git")
    r = h("install")
    assert r.code == 1 and reads in r.err and LINE in r.err, r.text
    assert _state(repo / ".git") == before


def test_a_python_pre_push_hook_reading_its_first_argument_is_still_chained(h, repo):
    hooks = repo / ".git" / "hooks"
    theirs = "#!/usr/bin/env python3\nimport sys\nremote = sys.argv[1]\n"
    _executable(hooks / "pre-push", theirs)
    r = h("install")
    assert r.code == 0 and "kept your pre-push hook" in r.out, r.text
    assert (hooks / "pre-push.pre-harness").read_text() == theirs and SHIM in (hooks / "pre-push").read_text()
