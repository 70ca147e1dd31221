"""The skills are tested like code: valid Agent Skills, commands that exist, findings the harness accepts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support.skill_commands import FENCE, command_lines, files_named, mentions, parse, skill_dirs

ROOT = Path(__file__).resolve().parent.parent
SKILLS = ROOT / "skills"
EXPECTED = {"engineering-harness", "task-contract", "adversarial-review", "reproduce-finding", "collect-evidence",
            "quality-gate", "convergence"}
SUPERPOWERS = ("brainstorming", "writing-plans", "test-driven-development", "systematic-debugging",
               "subagent-driven-development", "requesting-code-review", "receiving-code-review",
               "verification-before-completion", "finishing-a-development-branch")
DOCS = sorted(p for p in SKILLS.rglob("*.md"))


def frontmatter(path: Path) -> tuple[dict, str]:
    text = path.read_text("utf-8")
    _, head, body = text.split("---\n", 2)
    return yaml.safe_load(head), body


def test_the_root_controller_and_the_six_sub_skills_exist():
    assert {p.name for p in skill_dirs(SKILLS)} == EXPECTED


@pytest.mark.parametrize("skill", sorted(EXPECTED))
def test_skills_ref_validates_the_skill(skill):
    tool = Path(sys.executable).parent / "agentskills"  # the CLI of PyPI's skills-ref
    p = subprocess.run([str(tool), "validate", str(SKILLS / skill)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("skill", sorted(EXPECTED))
def test_name_matches_the_folder_description_says_when_and_body_is_short(skill):
    meta, body = frontmatter(SKILLS / skill / "SKILL.md")
    assert meta["name"] == skill and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", skill) and len(skill) <= 64
    assert 0 < len(meta["description"]) <= 1024 and "Use " in meta["description"]
    assert len(body.splitlines()) < 500
    assert "harness " in body  # each names the exact commands it uses


def test_the_controller_reuses_every_superpowers_skill_by_name_with_a_fallback():
    _, body = frontmatter(SKILLS / "engineering-harness" / "SKILL.md")
    fallbacks = (SKILLS / "engineering-harness" / "references" / "superpowers-fallbacks.md").read_text("utf-8")
    for name in SUPERPOWERS:
        assert f"`{name}`" in body, name
        assert f"**{name}**" in fallbacks, name


def test_the_controller_starts_from_harness_status_and_leaves_completion_to_the_gate():
    _, body = frontmatter(SKILLS / "engineering-harness" / "SKILL.md")
    assert ".harness/" in body and "harness status" in body
    assert "GATING → `harness gate` exit 0 → CONVERGED → DONE" in body


def test_adversarial_review_works_from_the_review_packet_only():
    _, body = frontmatter(SKILLS / "adversarial-review" / "SKILL.md")
    assert "harness review packet" in body and "harness finding propose --file" in body


def _all_lines() -> list[tuple[str, str]]:
    return [(str(p.relative_to(ROOT)), line) for p in DOCS for line in command_lines(p.read_text("utf-8"))]


def _all_mentions() -> list[tuple[str, str]]:
    return [(str(p.relative_to(ROOT)), m) for p in DOCS for m in mentions(p.read_text("utf-8"))]


def test_skills_write_enough_commands_for_the_parse_tests_to_mean_something():
    assert len(_all_lines()) >= 30 and len(_all_mentions()) >= 30


@pytest.mark.parametrize("where,line", _all_lines())
def test_every_command_line_in_a_skill_parses_against_the_cli(where, line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in files_named(line):  # click checks that --file names an existing file
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert parse(line) is not None, where


@pytest.mark.parametrize("where,line", _all_mentions())
def test_every_command_named_in_a_skills_prose_exists_with_its_options(where, line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in files_named(line):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    parse(line, complete=False)


def test_the_parse_check_catches_a_wrong_command_option_or_value():
    import click

    for bad in ("harness gate --nope", "harness finding nope F-0001", "harness evidence unit-test",
                "harness transition NOWHERE", "harness bogus"):
        with pytest.raises(click.UsageError):
            parse(bad)


def _finding_examples() -> list[tuple[str, str]]:
    out = []
    for p in DOCS:
        for lang, body in FENCE.findall(p.read_text("utf-8")):
            if lang == "yaml" and "findings:" in body:
                out.append((str(p.relative_to(ROOT)), body))
    for p in SKILLS.rglob("*.yaml"):
        if "findings:" in p.read_text("utf-8"):
            out.append((str(p.relative_to(ROOT)), p.read_text("utf-8")))
    return out


def test_there_are_finding_examples_to_check():
    assert len(_finding_examples()) >= 2


@pytest.mark.parametrize("where,text", _finding_examples())
def test_every_finding_example_is_accepted_by_finding_propose(where, text, h, task, tmp_path):
    path = tmp_path / "findings.yaml"
    path.write_text(text)
    r = h("finding", "propose", "--file", str(path))
    assert r.code == 0, f"{where}: {r.text}"
    listed = h.ok("finding", "list", "--json").out
    assert listed.count('"PROPOSED"') == len(yaml.safe_load(text)["findings"])


def _contract_examples() -> list[tuple[str, str]]:
    return [(str(p.relative_to(ROOT)), body) for p in DOCS for lang, body in FENCE.findall(p.read_text("utf-8"))
            if lang == "yaml" and body.lstrip().startswith("contract:")]


@pytest.mark.parametrize("where,text", _contract_examples())
def test_every_contract_example_passes_contract_check(where, text, h, task, tmp_path):
    path = tmp_path / "contract.yaml"
    path.write_text(text)
    r = h("contract", "check", "--file", str(path))
    assert r.code == 0, f"{where}: {r.text}"


def test_skills_are_found_where_the_package_looks_for_them():
    from harness.agent.skills_install import shipped, source_dir

    assert source_dir().resolve() == SKILLS.resolve() or (source_dir() / "engineering-harness").is_dir()
    assert "engineering-harness/SKILL.md" in shipped()
    assert os.path.isdir(source_dir())
