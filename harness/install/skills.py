"""Install and uninstall the harness's Agent Skills where a coding agent finds them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.agent.skills_install import SkillsResult


@dataclass(frozen=True)
class SkillsInstalled:
    result: SkillsResult

    def as_dict(self) -> dict[str, Any]:
        return self.result.as_dict()


@dataclass(frozen=True)
class SkillsUninstalled:
    result: SkillsResult

    def as_dict(self) -> dict[str, Any]:
        return self.result.as_dict()


def install(agent: str, scope: str, root: Path, home: Path, force: bool) -> SkillsInstalled:
    from harness.agent.skills_install import install_skills

    return SkillsInstalled(install_skills(agent, scope, root, home, force))


def uninstall(agent: str, scope: str, root: Path, home: Path) -> SkillsUninstalled:
    from harness.agent.skills_install import uninstall_skills

    return SkillsUninstalled(uninstall_skills(agent, scope, root, home))
