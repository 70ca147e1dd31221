"""The two files made from :mod:`harness.install.hook_stages`: the pre-commit framework's hook list
(``.pre-commit-hooks.yaml``) and the native shim (``hooks/native-hook``, which runs before Python
does and so cannot read the table itself). Both are committed; a test holds them equal to what
this module makes. After editing the table: ``python -m harness.install.hook_files`` rewrites them.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from harness.gitio.fast_path import (
    COMMITTED_TREE,
    FOLDER_ENTRY,
    HARNESS_ENTRIES,
    HARNESS_SPELLINGS,
    MERGE_HEAD_PATH,
)
from harness.install.hook_stages import FRAMEWORK_HOOKS, STAGES
from harness.install.shims import FRAMEWORK_MARK

MINIMUM_PRE_COMMIT = "3.2.0"  # the first release naming stages as git does (pre-commit, not commit)

HOOKS_YAML_HEAD = """\
# Engineering Harness as a pre-commit hook repository.
# Generated from harness/install/hook_stages.py by `python -m harness.install.hook_files`: edit the table, not this file.
# Install every stage with `default_install_hook_types` (see README.md).
# The commit hooks are `always_run`, not `files: ^\\.harness/`: the framework's staged-file list leaves out
# deletions (--diff-filter=ACMRTUXB; deleting a task or a finding must be refused) and, when concluding a
# conflicted merge, names only the conflicted files. A code-only commit is answered by `harness` itself
# from git (the tree `git write-tree` gives holds HEAD's .harness entry, no merge in progress, HEAD's .harness a
# folder) before any check is imported.
"""

NATIVE_HOOK = """\
#!/bin/sh
# engineering-harness native hook shim — installed by `harness install`, removed by `harness uninstall`.
# Generated from harness/install/hook_stages.py by `python -m harness.install.hook_files`: edit the table, not this file.
# One script serves every stage: git names it after the hook it is installed as.
stage=$(basename "$0")
# Installed as <stage>.d/harness, where a hook of the user's runs every file of <stage>.d/ (Gitea's, a hand-made
# dispatcher): the folder names the stage.
if [ "$stage" = harness ]; then stage=$(basename "$(dirname "$0")" .d); fi
chained="$0.pre-harness"
# `pre-commit install` over these shims keeps the one it replaces as <stage>.legacy and runs it
# (the framework's migration mode): the stage is still the stage, and the hook this shim chained is still
# <stage>.pre-harness beside it. Never the framework's own hook there (a copy left from when the shim chained
# it): the framework is what runs this one.
case "$stage" in
  *.legacy)
    stage=${{stage%.legacy}}
    chained="${{0%.legacy}}.pre-harness"
    if grep -qF {framework_mark} "$chained" 2>/dev/null; then chained=; fi
    ;;
esac
py="@PYTHON@"
# -E -P: neither PYTHONPATH nor the work tree the hook runs in is put on sys.path, so a harness/ package
# there never answers for the installed one.
if [ -x "$py" ]; then run() {{ "$py" -E -P -m harness "$@"; }}; else run() {{ harness "$@"; }}; fi

case "$stage" in
  {reads_stdin})
    # These stages read lines from stdin: give the chained hook and the harness the same lines.
    input=$(cat)
    if [ -x "$chained" ]; then printf '%s\\n' "$input" | "$chained" "$@" || exit $?; fi
    printf '%s\\n' "$input" | run hook run "$stage" "$@"
    ;;
  {skips_code_only})
    if [ -x "$chained" ]; then "$chained" "$@" || exit $?; fi
    # A code-only commit (the tree git commits from its index — $GIT_INDEX_FILE for `commit -a`
    # and `commit PATH` — holds HEAD's .harness entry, and no merge is being concluded) leaves the
    # harness nothing to judge: git says so without starting Python. The tree is `git write-tree`'s,
    # built as git commit builds it (from the index's cache-tree where valid, not its entries alone).
    # HEAD's .harness must be a folder (or absent): one of another kind is the checks' to refuse.
    # Any doubt runs the checks.
    harness_entries() {{ {harness_entries} "$1" -- {spellings} 2>/dev/null; }}
    merge_head=$({merge_head_path} 2>/dev/null)
    if [ $? -eq 0 ] && [ -n "$merge_head" ] && [ ! -e "$merge_head" ] && [ ! -L "$merge_head" ] \\
        && tree=$({committed_tree} 2>/dev/null) && [ -n "$tree" ]; then
      # Each entry by any case of its name, its mode and id; more than one line in HEAD (a second spelling, a
      # duplicate) runs the checks.
      staged=$(harness_entries "$tree") && kind=$(harness_entries HEAD) && [ "$staged" = "$kind" ] \\
        && case "$kind" in *"
"*) ;; ""|"{folder_entry}"*) exit 0;; esac
    fi
    run hook run "$stage" "$@"
    ;;
  *)
    if [ -x "$chained" ]; then "$chained" "$@" || exit $?; fi
    run hook run "$stage" "$@"
    ;;
esac
"""


def native_hook() -> str:
    """The shim's text, ``@PYTHON@`` still to be filled in by the installer."""
    return NATIVE_HOOK.format(framework_mark=shlex.quote(FRAMEWORK_MARK),
                              reads_stdin="|".join(s.name for s in STAGES if s.reads_stdin),
                              skips_code_only="|".join(s.name for s in STAGES if s.skips_code_only),
                              merge_head_path=shlex.join(MERGE_HEAD_PATH),
                              committed_tree=shlex.join(COMMITTED_TREE), harness_entries=shlex.join(HARNESS_ENTRIES),
                              spellings=shlex.join(HARNESS_SPELLINGS), folder_entry=FOLDER_ENTRY)


def pre_commit_hooks_yaml() -> str:
    lines = [HOOKS_YAML_HEAD.rstrip("\n")]
    for hook in FRAMEWORK_HOOKS:
        lines += [f"- id: {hook.id}", f"  name: {hook.name}", f"  description: {hook.description}",
                  f"  entry: harness hook {hook.check}", "  language: python", "  pass_filenames: false",
                  "  always_run: true"]
        if hook.verbose:
            lines += [f"  # {hook.verbose}", "  verbose: true"]
        lines += [f"  stages: [{', '.join(hook.stages)}]", f"  minimum_pre_commit_version: {MINIMUM_PRE_COMMIT}"]
    return "\n".join(lines) + "\n"


def generated(root: Path) -> dict[Path, str]:
    """Each generated file of a source checkout at ``root``, with the text it must hold."""
    return {root / ".pre-commit-hooks.yaml": pre_commit_hooks_yaml(), root / "hooks" / "native-hook": native_hook()}


def write(root: Path) -> list[Path]:
    """Rewrite the generated files of the source checkout at ``root`` that differ; those rewritten."""
    stale = [path for path, text in generated(root).items()
             if not path.exists() or path.read_text("utf-8") != text]
    for path in stale:
        path.write_text(generated(root)[path], "utf-8")
    return stale


if __name__ == "__main__":
    write(Path(__file__).resolve().parents[2])  # the checkout: harness/install/ is two folders down
