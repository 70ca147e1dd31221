"""Under the pre-commit framework, `.pre-commit-config.yaml` is what runs the harness's hooks. The
tool guard denies an edit that leaves one out and a commit that would carry such a config; an
edit that keeps them (or drops only a manual-stage one, which never runs on a commit) is allowed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.agent.judge import framework_config
from harness.agent.judge.framework_config import edited_text, patch_drops
from harness.agent.run import run

from support.cli import Harness
from support.gitrepo import git

CONFIG = """repos:
  - repo: https://example.invalid/harness
    rev: v1
    hooks:
      - id: harness-validate
      - id: harness-stamp
      - id: harness-push-guard
      - id: harness-gate
"""


def _loaded() -> tuple:
    """The loader to hand the judge: pre-commit's reading of the config. Imported here, not at the top, so that this
    file also runs against the code before F-0316 (which read the text itself and took no loader): a regression run
    at that commit (`harness finding regression --failing-at`) shows these tests failing there, not a collection error."""
    try:
        from harness.agent.framework_yaml import load_config
    except ImportError:
        return ()
    return (load_config,)


def dropped(before: str | None, after: str | None) -> list[str]:
    """The harness hooks ``after`` no longer runs, both loaded as pre-commit loads them."""
    return framework_config.dropped(before, after, *_loaded())


def pre_tool_use(cwd: Path, tool_name: str, tool_input: dict) -> str | None:
    data = {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_use_id": "toolu_01", "tool_name": tool_name,
            "tool_input": tool_input}
    reply = run("claude" if tool_name != "apply_patch" else "codex", "pre-tool-use", json.dumps(data))
    out = json.loads(reply.stdout) if reply.stdout else {}
    decision = out.get("hookSpecificOutput", {})
    return decision.get("permissionDecisionReason") if decision.get("permissionDecision") == "deny" else None


@pytest.fixture
def framework(h: Harness) -> Path:
    """A repository whose committed framework config runs the harness's hooks."""
    (h.root / ".pre-commit-config.yaml").write_text(CONFIG)
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "-m", "framework config")
    return h.root


def test_the_hooks_a_config_drops_are_named() -> None:
    assert dropped(CONFIG, CONFIG.replace("      - id: harness-validate\n", "")) == ["harness-validate"]
    assert dropped(CONFIG, CONFIG.replace("      - id: harness-gate\n", "")) == []  # manual stage
    assert dropped(CONFIG, CONFIG + "  - repo: local\n    hooks:\n      - id: flake8\n") == []
    assert dropped(None, "repos: []\n") == []
    assert patch_drops("@@\n-      - id: harness-stamp\n+      - id: flake8\n") == ["harness-stamp"]
    assert patch_drops("@@\n-      - id: harness-stamp\n+      - id: 'harness-stamp'\n") == []


def test_an_edit_tool_result_is_worked_out_from_the_file() -> None:
    assert edited_text("Write", {"content": "x"}, "y") == "x"
    assert edited_text("Edit", {"old_string": "a", "new_string": "b"}, "aa") == "ba"
    assert edited_text("Edit", {"old_string": "a", "new_string": "b", "replace_all": True}, "aa") == "bb"
    assert edited_text("MultiEdit", {"edits": [{"old_string": "a", "new_string": "b"},
                                               {"old_string": "b", "new_string": "c"}]}, "a") == "c"
    assert edited_text("NotebookEdit", {"new_source": "x"}, "y") is None


def test_an_edit_dropping_a_harness_hook_is_denied(framework: Path) -> None:
    path = str(framework / ".pre-commit-config.yaml")
    reason = pre_tool_use(framework, "Edit", {"file_path": path, "old_string": "      - id: harness-validate\n",
                                              "new_string": ""})
    assert reason is not None and "harness-validate" in reason and "Instead:" in reason
    assert pre_tool_use(framework, "Write", {"file_path": path, "content": "repos: []\n"}) is not None
    patch = ("*** Begin Patch\n*** Update File: .pre-commit-config.yaml\n@@\n-      - id: harness-stamp\n"
             "*** End Patch\n")
    assert pre_tool_use(framework, "apply_patch", {"command": patch}) is not None


def test_an_edit_keeping_the_harness_hooks_is_allowed(framework: Path) -> None:
    path = str(framework / ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Write", {"file_path": path, "content": CONFIG + "# tidy\n"}) is None
    assert pre_tool_use(framework, "Edit", {"file_path": path, "old_string": "      - id: harness-gate\n",
                                            "new_string": ""}) is None
    assert pre_tool_use(framework, "Edit", {"file_path": path, "old_string": "rev: v1", "new_string": "rev: v2"}) \
        is None


def test_committing_a_config_without_a_harness_hook_is_denied(framework: Path) -> None:
    commit = {"command": "git commit -m 'tidy hooks'"}
    (framework / ".pre-commit-config.yaml").write_text(CONFIG.replace("      - id: harness-push-guard\n", ""))
    reason = pre_tool_use(framework, "Bash", commit)
    assert reason is not None and "harness-push-guard" in reason
    git(framework, "add", ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Bash", commit) is not None
    assert pre_tool_use(framework, "Bash", {"command": "git commit --dry-run"}) is None
    assert pre_tool_use(framework, "Bash", {"command": "git status"}) is None


def test_committing_with_the_harness_hooks_kept_is_allowed(framework: Path) -> None:
    (framework / ".pre-commit-config.yaml").write_text(CONFIG.replace("rev: v1", "rev: v2"))
    git(framework, "add", ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Bash", {"command": "git commit -m 'bump hooks'"}) is None


# F-0312: a harness hook kept by id but given keys that stop it or change what it runs is off as surely as one
# left out. The hooks always run and take no file names (.pre-commit-hooks.yaml), so nothing but `id` and keys that
# change neither is theirs to set.
HOOK = "      - id: harness-validate\n"
SWITCHING_OFF = [
    "        args: [--help]\n",
    "        args:\n          - --help\n",
    "        always_run: false\n        files: ^$\n",
    "        always_run: false\n",
    "        pass_filenames: true\n",
    "        files: ^$\n",
    "        exclude: .*\n",
    "        types: [markdown]\n",
    "        types_or: [markdown]\n",
    "        exclude_types: [text]\n",
    "        stages: [pre-push]\n",
    "        stages:\n          - post-commit\n",
    "        additional_dependencies: [./elsewhere]\n",
]


@pytest.mark.parametrize("keys", SWITCHING_OFF)
def test_a_harness_hook_given_keys_that_stop_or_narrow_it_counts_as_dropped(keys: str) -> None:
    assert dropped(CONFIG, CONFIG.replace(HOOK, HOOK + keys)) == ["harness-validate"]


def test_a_harness_hook_switched_off_in_flow_style_or_with_its_id_last_counts_as_dropped() -> None:
    assert dropped(CONFIG, CONFIG.replace(HOOK, "      - {id: harness-validate, args: [--help]}\n")) \
        == ["harness-validate"]
    assert dropped(CONFIG, CONFIG.replace(HOOK, "      - args: [--help]\n        id: harness-validate\n")) \
        == ["harness-validate"]


@pytest.mark.parametrize("keys", ["        verbose: true\n", "        name: validate the record\n",
                                  "        always_run: true\n", "        pass_filenames: false\n",
                                  "        stages: [pre-commit, pre-merge-commit]\n", "        log_file: hooks.log\n"])
def test_a_harness_hook_given_keys_that_keep_it_running_is_kept(keys: str) -> None:
    assert dropped(CONFIG, CONFIG.replace(HOOK, HOOK + keys)) == []


TWO_REPOS = CONFIG + "  - repo: https://example.invalid/linters\n    rev: v3\n    hooks:\n      - id: flake8\n"


def test_editing_the_rest_of_the_config_keeps_the_harness_hooks() -> None:
    assert dropped(TWO_REPOS, TWO_REPOS.replace("rev: v3", "rev: v4")) == []
    assert dropped(TWO_REPOS, TWO_REPOS + "      - id: mypy\n        args: [--strict]\n        files: ^src/\n") == []
    assert dropped(TWO_REPOS, TWO_REPOS.replace(HOOK, HOOK + "      - id: black\n        args: [-q]\n")) == []
    # Top-level filters and stages do not reach the harness hooks: they always run, at the stages they name.
    assert dropped(TWO_REPOS, "fail_fast: true\nexclude: ^vendor/\nfiles: ^src/\ndefault_stages: [pre-push]\n"
                   + TWO_REPOS) == []


def test_an_edit_giving_a_harness_hook_args_is_denied(framework: Path) -> None:
    path = str(framework / ".pre-commit-config.yaml")
    reason = pre_tool_use(framework, "Edit", {"file_path": path, "old_string": HOOK,
                                              "new_string": HOOK + "        args: [--help]\n"})
    assert reason is not None and "harness-validate" in reason and "Instead:" in reason
    patch = ("*** Begin Patch\n*** Update File: .pre-commit-config.yaml\n@@\n" + " " + HOOK
             + "+        always_run: false\n+        files: ^$\n" + "       - id: harness-stamp\n*** End Patch\n")
    assert pre_tool_use(framework, "apply_patch", {"command": patch}) is not None


def test_committing_a_harness_hook_given_args_is_denied(framework: Path) -> None:
    (framework / ".pre-commit-config.yaml").write_text(CONFIG.replace(HOOK, HOOK + "        args: [--help]\n"))
    git(framework, "add", ".pre-commit-config.yaml")
    reason = pre_tool_use(framework, "Bash", {"command": "git commit -m 'quiet hooks'"})
    assert reason is not None and "harness-validate" in reason


def test_an_edit_adding_an_unrelated_hook_is_allowed(framework: Path) -> None:
    path = str(framework / ".pre-commit-config.yaml")
    added = "  - repo: local\n    hooks:\n      - id: mypy\n        entry: mypy\n        language: system\n" \
            "        args: [--strict]\n        files: ^src/\n"
    assert pre_tool_use(framework, "Write", {"file_path": path, "content": CONFIG + added}) is None
    patch = ("*** Begin Patch\n*** Update File: .pre-commit-config.yaml\n@@\n" + " " + HOOK
             + "+        verbose: true\n" + "       - id: harness-stamp\n*** End Patch\n")
    assert pre_tool_use(framework, "apply_patch", {"command": patch}) is None
    (framework / ".pre-commit-config.yaml").write_text(CONFIG + added)
    git(framework, "add", ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Bash", {"command": "git commit -m 'type-check src'"}) is None


def test_the_stages_the_guard_keeps_are_the_hook_repositorys() -> None:
    from harness.agent.judge.framework_config import HOOK_STAGES
    from harness.install.hook_stages import FRAMEWORK_HOOKS

    checks = {hook.id: frozenset(hook.stages) for hook in FRAMEWORK_HOOKS if hook.stages != ("manual",)}
    assert HOOK_STAGES.keys() == checks.keys()
    assert {k: v for k, v in HOOK_STAGES.items() if k != "harness-stamp"} == {
        k: v for k, v in checks.items() if k != "harness-stamp"}
    assert HOOK_STAGES["harness-stamp"] == {"post-commit"} < checks["harness-stamp"]


def test_a_merge_guard_taken_off_the_merges_git_concludes_counts_as_dropped() -> None:
    hook = "      - id: harness-stamp\n"
    config = CONFIG.replace(hook, hook + "      - id: harness-merge-guard\n")
    narrowed = config.replace("harness-merge-guard\n", "harness-merge-guard\n        stages: [pre-commit]\n")
    assert dropped(config, narrowed) == ["harness-merge-guard"]
    assert dropped(config, config.replace(hook, hook + "        stages: [post-commit]\n")) == []


def test_a_patch_is_judged_on_the_config_it_leaves() -> None:
    def patch_dropped(before: str, patch: str) -> list[str]:
        return framework_config.patch_dropped(before, patch, *_loaded())

    head = "*** Begin Patch\n*** Update File: .pre-commit-config.yaml\n@@\n"
    assert patch_dropped(CONFIG, head + " " + HOOK + "+        args: [--help]\n*** End Patch\n") == ["harness-validate"]
    assert patch_dropped(CONFIG, head + " " + HOOK + "+        verbose: true\n*** End Patch\n") == []
    # One this cannot apply that adds lines: every hook in force is taken as reached.
    assert patch_dropped(CONFIG, head + " nowhere\n+x: 1\n*** End Patch\n") \
        == ["harness-push-guard", "harness-stamp", "harness-validate"]


# F-0316, F-0317: the config is judged as pre-commit loads it (PyYAML's safe loader, a repeated key's last value
# winning; only repos[*].hooks[*]). A harness hook id in text pre-commit never reads as a hook is not kept, and a
# key under a harness hook counts however YAML spells it.
NOT_KEPT = {
    "a second repos key, the last winning": CONFIG + "repos: []\n",
    "the ids under an unknown top-level key": "x-kept:\n  - id: harness-validate\n  - id: harness-stamp\n"
                                              "  - id: harness-push-guard\nrepos: []\n",
    "a repeated id key, the last winning": CONFIG.replace(HOOK, HOOK + "        id: harness-gate\n"),
    "the hooks list given twice, the last winning": CONFIG + "    hooks: []\n",
}
SPELLED_AROUND = {
    "an explicit key": CONFIG.replace(HOOK, HOOK + "        ? args\n        : [--help]\n"),
    "a tagged key": CONFIG.replace(HOOK, HOOK + "        !!str args: [--help]\n"),
    "an anchored key": CONFIG.replace(HOOK, HOOK + "        &k args: [--help]\n"),
    "a flow item with a quoted #": CONFIG.replace(HOOK, "      - {id: harness-validate, name: 'a #', args: [--help]}\n"),
    "a quoted key": CONFIG.replace(HOOK, HOOK + "        \"ar\\x67s\": [--help]\n"),
    "a merge key": CONFIG.replace(HOOK, HOOK + "        <<: {args: [--help]}\n"),
}


@pytest.mark.parametrize("config", [*NOT_KEPT.values(), *SPELLED_AROUND.values()],
                         ids=[*NOT_KEPT, *SPELLED_AROUND])
def test_a_harness_hook_pre_commit_does_not_run_as_defined_is_denied_at_the_edit(framework: Path, config: str) -> None:
    reason = pre_tool_use(framework, "Write", {"file_path": str(framework / ".pre-commit-config.yaml"),
                                               "content": config})
    assert reason is not None and "harness-validate" in reason, reason


@pytest.mark.parametrize("config", [*NOT_KEPT.values(), *SPELLED_AROUND.values()],
                         ids=[*NOT_KEPT, *SPELLED_AROUND])
def test_a_harness_hook_pre_commit_does_not_run_as_defined_is_denied_at_the_commit(framework: Path,
                                                                                   config: str) -> None:
    (framework / ".pre-commit-config.yaml").write_text(config)
    git(framework, "add", ".pre-commit-config.yaml")
    reason = pre_tool_use(framework, "Bash", {"command": "git commit -m 'tidy hooks'"})
    assert reason is not None and "harness-validate" in reason, reason


def test_a_config_pre_commit_cannot_load_is_denied(framework: Path) -> None:
    """pre-commit runs no hook of a config it cannot load: the guard does not vouch for one either."""
    path = str(framework / ".pre-commit-config.yaml")
    for broken in (CONFIG + "  - {repo: local\n", CONFIG + "\t- repo: x\n", CONFIG + "---\nrepos: []\n"):
        reason = pre_tool_use(framework, "Write", {"file_path": path, "content": broken})
        assert reason is not None and "harness-validate" in reason, broken
    (framework / ".pre-commit-config.yaml").write_text(CONFIG + "  - {repo: local\n")
    assert pre_tool_use(framework, "Bash", {"command": "git commit -am 'tidy hooks'"}) is not None


KEPT_AS_LOADED = {
    "keys reordered": CONFIG.replace("  - repo: https://example.invalid/harness\n    rev: v1\n",
                                     "  - rev: v1\n    repo: https://example.invalid/harness\n"),
    "hooks reordered": CONFIG.replace(HOOK, "").replace("      - id: harness-gate\n",
                                                          "      - id: harness-gate\n" + HOOK),
    "comments": "# the harness's checks\n" + CONFIG.replace(HOOK, "      # validate: see docs/git.md\n"
                                                                   "      - id: harness-validate  # the record\n"),
    "quoted ids and a flow item": CONFIG.replace("- id: harness-stamp", "- id: 'harness-stamp'")
                                        .replace(HOOK, "      - {id: \"harness-validate\", name: 'a #'}\n"),
    "flow style throughout": "repos: [{repo: 'https://example.invalid/harness', rev: v1, hooks: [{id: harness-validate},"
                             " {id: harness-stamp}, {id: harness-push-guard}]}]\n",
    "an explicit id key": CONFIG.replace(HOOK, "      - ? id\n        : harness-validate\n"),
    "another repository's hook with args": TWO_REPOS + "        args: [--help]\n",
    "top-level keys added": "default_install_hook_types: [pre-commit, post-commit, pre-push]\nminimum_pre_commit_version:"
                            " '3.2.0'\nci: {skip: [harness-validate]}\n" + CONFIG,
}


@pytest.mark.parametrize("config", KEPT_AS_LOADED.values(), ids=KEPT_AS_LOADED)
def test_an_edit_pre_commit_loads_with_the_harness_hooks_kept_is_allowed(framework: Path, config: str) -> None:
    path = str(framework / ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Write", {"file_path": path, "content": config}) is None
    (framework / ".pre-commit-config.yaml").write_text(config)
    git(framework, "add", ".pre-commit-config.yaml")
    assert pre_tool_use(framework, "Bash", {"command": "git commit -m 'tidy hooks'"}) is None


# F-0318: Codex seeks a chunk marked `*** End of File` from the end of the file, not from its start.
SEPARATED = """repos:
  - repo: local
    hooks:
      - id: noop
        name: noop
        entry: "true"
        language: system
  # ---
  - repo: https://example.invalid/harness
    rev: v1
    hooks:
      - id: harness-stamp
      - id: harness-push-guard
      - id: harness-validate
  # ---
"""
EOF_PATCH = ("*** Begin Patch\n*** Update File: .pre-commit-config.yaml\n@@\n+        args: [--help]\n   # ---\n"
             "*** End of File\n*** End Patch\n")


def test_an_end_of_file_chunk_is_placed_at_the_end_as_codex_places_it() -> None:
    from harness.agent.judge.framework_config import patched_text

    after = patched_text(SEPARATED, EOF_PATCH)
    assert after == SEPARATED[:-len("  # ---\n")] + "        args: [--help]\n  # ---\n"
    # Without the marker Codex takes the first match, as before.
    plain = patched_text(SEPARATED, EOF_PATCH.replace("*** End of File\n", ""))
    assert plain == SEPARATED.replace("  # ---\n", "        args: [--help]\n  # ---\n", 1)


def test_an_end_of_file_chunk_reaching_a_harness_hook_is_denied(h: Harness) -> None:
    (h.root / ".pre-commit-config.yaml").write_text(SEPARATED)
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "-m", "framework config")
    reason = pre_tool_use(h.root, "apply_patch", {"command": EOF_PATCH})
    assert reason is not None and "harness-validate" in reason
    assert pre_tool_use(h.root, "apply_patch", {"command": EOF_PATCH.replace("*** End of File\n", "")}) is None
