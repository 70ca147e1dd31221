"""`harness skills install|uninstall`: where each agent looks, idempotent, and never clobbering a user's edit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.agent.skills_install import MANIFEST, install_skills, shipped, uninstall_skills

ROOT = Path(__file__).resolve().parent.parent
ROOT_SKILL = "engineering-harness/SKILL.md"


def skills_at(folder: Path) -> set[str]:
    return {p.parent.name for p in folder.glob("*/SKILL.md")}


@pytest.mark.parametrize("agent,folder", [("claude", ".claude/skills"), ("gemini", ".gemini/skills"),
                                          ("codex", ".agents/skills"), ("agents", ".agents/skills")])
def test_install_puts_every_skill_where_the_agent_discovers_it(h, repo, agent, folder):
    r = h.ok("skills", "install", "--agent", agent)
    assert str(repo / folder) in r.out
    assert skills_at(repo / folder) == {p.parent.name for p in (ROOT / "skills").glob("*/SKILL.md")}
    for rel, data in shipped().items():
        assert (repo / folder / rel).read_bytes() == data, rel


def test_user_scope_installs_under_the_home_directory(h, repo):
    home = Path.home()  # a temporary home in every test (conftest)
    h.ok("skills", "install", "--agent", "claude", "--scope", "user")
    assert (home / ".claude/skills" / ROOT_SKILL).is_file()
    assert not (repo / ".claude").exists()


def test_installing_twice_changes_nothing(h, repo):
    first = json.loads(h.ok("skills", "install", "--json").out)
    before = {p: p.stat().st_mtime_ns for p in (repo / ".agents/skills").rglob("*")}
    second = json.loads(h.ok("skills", "install", "--json").out)
    assert first["written"] and not first["unchanged"]
    assert second["written"] == [] and sorted(second["unchanged"]) == sorted(first["written"])
    assert {p: p.stat().st_mtime_ns for p in (repo / ".agents/skills").rglob("*")} == before


def test_an_edited_copy_is_kept_without_force_and_replaced_with_it(h, repo):
    h.ok("skills", "install")
    edited = repo / ".agents/skills" / ROOT_SKILL
    edited.write_text(edited.read_text() + "\nOur team's extra rule.\n")
    r = h.ok("skills", "install")
    assert f"kept {ROOT_SKILL}" in r.out and "Our team's extra rule." in edited.read_text()
    h.ok("skills", "install", "--force")
    assert edited.read_bytes() == shipped()[ROOT_SKILL]


def test_a_skill_of_the_same_name_that_harness_did_not_install_is_left_alone(h, repo):
    mine = repo / ".claude/skills" / ROOT_SKILL
    mine.parent.mkdir(parents=True)
    mine.write_text("---\nname: engineering-harness\ndescription: my own\n---\n")
    r = h.ok("skills", "install", "--agent", "claude")
    assert f"kept {ROOT_SKILL}" in r.out and mine.read_text().endswith("my own\n---\n")
    h.ok("skills", "uninstall", "--agent", "claude")
    assert mine.read_text().endswith("my own\n---\n")  # never ours, never removed


def test_uninstall_removes_only_what_install_wrote_and_keeps_edits_and_neighbours(h, repo):
    neighbour = repo / ".claude/skills/other-skill/SKILL.md"
    neighbour.parent.mkdir(parents=True)
    neighbour.write_text("---\nname: other-skill\ndescription: not ours\n---\n")
    h.ok("skills", "install", "--agent", "claude")
    edited = repo / ".claude/skills/convergence/SKILL.md"
    edited.write_text("edited\n")
    r = h.ok("skills", "uninstall", "--agent", "claude")
    assert "kept convergence/SKILL.md" in r.out
    assert skills_at(repo / ".claude/skills") == {"other-skill", "convergence"}
    assert edited.read_text() == "edited\n" and neighbour.is_file()
    assert not (repo / ".claude/skills" / MANIFEST).exists()
    assert not (repo / ".claude/skills/engineering-harness").exists()  # emptied folders go too


def test_uninstall_with_nothing_installed_removes_nothing(h, repo):
    r = h.ok("skills", "uninstall", "--agent", "gemini")
    assert "0 file(s) removed" in r.out


def test_an_update_replaces_untouched_files_and_drops_ones_no_longer_shipped(tmp_path):
    src = tmp_path / "src"
    (src / "demo-skill/references").mkdir(parents=True)
    (src / "demo-skill/SKILL.md").write_text("v1\n")
    (src / "demo-skill/references/old.md").write_text("old\n")
    root, home = tmp_path / "project", tmp_path / "home"
    first = install_skills("claude", "project", root, home, src=src)
    assert sorted(first.written) == ["demo-skill/SKILL.md", "demo-skill/references/old.md"]
    (src / "demo-skill/SKILL.md").write_text("v2\n")
    (src / "demo-skill/references/old.md").unlink()
    second = install_skills("claude", "project", root, home, src=src)
    assert second.written == ["demo-skill/SKILL.md"] and second.removed == ["demo-skill/references/old.md"]
    target = root / ".claude/skills/demo-skill"
    assert (target / "SKILL.md").read_text() == "v2\n" and not (target / "references").exists()
    gone = uninstall_skills("claude", "project", root, home)
    assert gone.removed == ["demo-skill/SKILL.md"] and not target.exists()


def test_the_installer_is_a_plain_function_other_front_ends_can_call(tmp_path):
    r = install_skills("gemini", "user", tmp_path / "p", tmp_path / "home")
    assert r.target == tmp_path / "home/.gemini/skills" and ROOT_SKILL in r.written
    assert set(r.as_dict()) == {"target", "written", "unchanged", "kept", "removed"}


def test_install_outside_a_git_repository_is_refused_with_a_hint(tmp_path, capfd):
    from support.cli import Harness

    r = Harness(tmp_path, capfd)("skills", "install")
    assert r.code == 2 and "not inside a git work tree" in r.err


def test_a_corrupt_manifest_is_named_not_trusted(h, repo):
    h.ok("skills", "install")
    (repo / ".agents/skills" / MANIFEST).write_text("[]")
    r = h("skills", "uninstall")
    assert r.code == 2 and MANIFEST in r.err
    assert (repo / ".agents/skills" / ROOT_SKILL).is_file()
