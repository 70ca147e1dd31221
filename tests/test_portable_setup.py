"""Issue #26 item 4, three frictions of setting a project up, each followed step by step as a user meets it:

2. the contract's working file: the skill said "outside `.harness/`", so it went to the repository root,
   became part of the source tree (the review's diff) and staled every piece of evidence when deleted;
10. `contract apply --help` pointed to `templates/contract.example.yaml`, a file of the harness's own
    repository, and nothing set `spec.plan`;
11. `harness agent install` wrote the absolute path of this machine's interpreter into `.claude/settings.json`,
    which breaks for every teammate once committed, and nothing said whether to commit it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from harness import resources

from support.cli import cli, status_json, walk_to
from support.gitrepo import git
from support.paths import ROOT

DRAFT = ".harness/local/contract.yaml"
SKILL = ROOT / "skills" / "task-contract" / "SKILL.md"
VENV_BIN = str(Path(sys.executable).parent)  # where `pip install` put the `harness` script


def evidence(h, *types: str) -> None:
    for etype in types:
        h.ok("evidence", etype, "--", sys.executable, "-c", "pass")


# -- 2: the contract is drafted where it cannot enter the source tree -----------------------------------

def test_the_contract_drafted_as_the_skill_says_never_enters_the_source_tree(h, repo, task):
    skill = SKILL.read_text("utf-8")
    assert "outside `.harness/`" not in skill and DRAFT in skill and "harness contract template" in skill
    assert DRAFT in h.ok("contract", "apply", "--help").out

    # The agent writes the draft with its edit tool: the guard lets it (only the ledger, evidence… are guarded).
    write = {"session_id": "s", "transcript_path": "/tmp/t", "cwd": str(repo), "hook_event_name": "PreToolUse",
             "permission_mode": "default", "tool_name": "Write", "tool_use_id": "t1",
             "tool_input": {"file_path": str(repo / DRAFT), "content": "contract: {}\n"}}
    answer = cli(repo, "hook", "agent", "claude", "pre-tool-use", stdin=json.dumps(write))
    assert answer.returncode == 0 and '"deny"' not in answer.stdout, answer.stdout + answer.stderr

    h.ok("contract", "template")  # the skill's step 3
    assert git(repo, "check-ignore", "-q", DRAFT, check=False).returncode == 0  # git-ignored
    assert h("contract", "check").code == 0  # the skill's step 4, on the draft
    h.ok("contract", "apply")
    walk_to(h, "IMPLEMENTING", "VERIFYING")
    evidence(h, "build", "unit_test")
    (repo / "app.py").write_text("def answer():\n    return 41 + 1\n")  # the work, after the contract
    evidence(h, "build", "unit_test")

    changed = [line for line in git(repo, "status", "--porcelain", "-uall").stdout.splitlines()
               if not line[3:].startswith(".harness/")]
    assert changed == [" M app.py"]  # the source tree holds the work, not the contract
    packet = h.ok("review", "packet").out
    assert "app.py" in packet and DRAFT not in packet and "+contract:" not in packet

    (repo / DRAFT).unlink()  # done with the draft: deleting it stales nothing
    assert {t: e["freshness"] for t, e in status_json(h)["evidence"].items()} == {
        "build": "FRESH", "unit_test": "FRESH"}


def test_a_contract_applied_from_the_source_tree_is_named_as_part_of_it(h, repo, task, tmp_path):
    (repo / "contract.yaml").write_bytes(resources.template("contract.example.yaml"))
    r = h.ok("contract", "apply", "--file", "contract.yaml")
    assert "contract.yaml is part of the source tree" in r.err and DRAFT in r.err
    # A file outside the work tree, or git-ignored, is not.
    for path in (tmp_path / "inbox" / "contract.yaml", repo / "scratch" / "contract.yaml"):
        path.parent.mkdir()
        path.write_bytes(resources.template("contract.example.yaml"))
        (repo / ".git" / "info" / "exclude").write_text("scratch/\n")
        h.ok("task", "new", f"another {path.parent.name}")
        r = h.ok("contract", "apply", "--file", str(path))
        assert "contract applied" in r.out and "part of the source tree" not in r.err


def test_apply_without_a_draft_names_the_command_that_writes_one(h, task):
    r = h("contract", "apply")
    assert r.code == 1 and f"no {DRAFT}" in r.err and "harness contract template" in r.err
    r = h("contract", "check")
    assert r.code == 1 and "harness contract template" in r.err
    assert status_json(h)["next"][0]["command"] == "harness contract apply"
    assert "harness contract template" in status_json(h)["next"][0]["why"]


# -- 10: the template is in the user's project, and spec.plan has a command ------------------------------

def test_the_help_points_to_a_command_the_user_has_and_the_plan_is_set_by_one(h, repo, task):
    text = h.ok("contract", "apply", "--help").out + h.ok("contract", "--help").out
    assert "templates/contract.example.yaml" not in text and "harness contract template" in text

    h.ok("contract", "template")
    assert (repo / DRAFT).read_bytes() == resources.template("contract.example.yaml")
    again = h("contract", "template")  # a draft being edited is never overwritten
    assert again.code == 1 and "--force" in again.err
    (repo / DRAFT).write_text("contract:\n  acceptance_criteria: [forty-two]\n  requirements:\n"
                              "    - statement: The answer is 42\n      priority: must\n      verified_by: [unit_test]\n")
    h.ok("contract", "template", "--force")
    assert (repo / DRAFT).read_bytes() == resources.template("contract.example.yaml")
    h.ok("contract", "apply")

    (repo / "docs").mkdir()
    (repo / "docs" / "plan.md").write_text("1. write the test\n2. make it pass\n")
    out = h.ok("task", "spec", "--plan", "docs/plan.md").out
    assert "spec.plan: docs/plan.md" in out and "spec.design: (none)" in out
    h.ok("task", "spec", "--design", "https://example.com/design")
    task_yaml = yaml.safe_load((repo / ".harness" / "tasks" / task / "task.yaml").read_text())
    assert task_yaml["task"]["spec"] == {"design": "https://example.com/design", "plan": "docs/plan.md"}

    walk_to(h, "IMPLEMENTING")  # every later rewrite keeps the links; the ledger agrees with the files
    assert status_json(h)["spec"] == {"design": "https://example.com/design", "plan": "docs/plan.md"}
    assert "files agree" in h.ok("replay").out
    assert "spec.plan: docs/plan.md" in h.ok("task", "spec").out
    h.ok("task", "spec", "--design", "")  # an empty value clears a link
    assert status_json(h)["spec"] == {"design": None, "plan": "docs/plan.md"}


# -- 11: the agent settings are portable, and the manual says to commit them -----------------------------

SETTINGS = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json", "gemini": ".gemini/settings.json"}


def commands_in(path: Path) -> list[str]:
    doc = json.loads(path.read_text())
    return [hd["command"] for groups in doc["hooks"].values() for g in groups for hd in g["hooks"]]


@pytest.mark.parametrize("host", sorted(SETTINGS))
def test_committed_agent_settings_work_in_a_teammates_clone(h, repo, task, tmp_path, host):
    h.ok("agent", "install", "--host", host)
    text = (repo / SETTINGS[host]).read_text()
    assert sys.executable not in text and VENV_BIN not in text and str(repo) not in text
    assert all(c.startswith(f"harness hook agent {host} ") for c in commands_in(repo / SETTINGS[host]))

    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "harness and agent settings", "--no-verify")
    mate = tmp_path / "elsewhere" / "teammate"
    git(tmp_path, "clone", "-q", str(repo), str(mate))
    event = {"claude": "SessionStart", "codex": "SessionStart", "gemini": "SessionStart"}[host]
    command = next(c for c in commands_in(mate / SETTINGS[host]) if c.endswith(" session-start"))
    payload = {"session_id": "s", "transcript_path": "/tmp/t", "cwd": str(mate), "hook_event_name": event,
               "source": "startup", **({"timestamp": "2026-12-01T04:00:00Z"} if host == "gemini"
                                       else {"permission_mode": "default"})}
    p = subprocess.run(command, shell=True, cwd=mate, input=json.dumps(payload), capture_output=True, text=True,
                       env={**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}"}, timeout=120)
    assert p.returncode == 0, p.stderr
    assert task in json.loads(p.stdout)["hookSpecificOutput"]["additionalContext"]


def test_absolute_is_an_option_off_by_default_and_the_install_warns_without_harness_on_path(h, repo, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    r = h.ok("agent", "install", "--host", "claude")
    assert "not on PATH" in r.err and "--absolute" in r.err
    r = h.ok("agent", "install", "--host", "claude", "--absolute")
    assert all(c.startswith(f"{sys.executable} -E -P -m harness hook agent claude ")  # see F-0007, F-0015
               for c in commands_in(repo / ".claude/settings.json"))
    assert "do not commit" in r.out
    h.ok("agent", "install", "--host", "claude")  # back to portable, still one entry per event
    assert sorted(commands_in(repo / ".claude/settings.json")) == [
        "harness hook agent claude pre-tool-use", "harness hook agent claude session-start",
        "harness hook agent claude stop"]


def test_the_manual_says_what_to_commit():
    agents = (ROOT / "docs" / "agents.md").read_text("utf-8")
    assert "**Commit it**" in agents and ".claude/settings.json" in agents and "--absolute" in agents
    assert "settings.local.json" in agents
    assert "commit what it writes" in (ROOT / "README.md").read_text("utf-8")
