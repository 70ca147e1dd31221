"""The project under test: where it is, its files, the interpreter, and the user-facing text."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def documentation() -> str:
    """What a user can read: the README (the front door) and the manual in docs/, as one text."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return "\n\n".join(page.read_text("utf-8") for page in pages)


PY = sys.executable


def outside_env(**extra: str) -> dict[str, str]:
    """os.environ without what a surrounding git process (a hook running this suite) sets to point
    git at its own repository: scratch repositories stay scratch, the project's stays untouched."""
    bending = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY",
               "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH", "GIT_COMMON_DIR")
    return {**{k: v for k, v in os.environ.items() if k not in bending}, **extra}


def project_files() -> list[str]:
    """This project's files (tracked, and untracked-not-ignored; its own .harness/ is not shipped)."""
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                          "--", ".", ":(exclude).harness"],
                         capture_output=True, check=True, env=outside_env()).stdout.decode("utf-8")
    return sorted({p for p in out.split("\0") if p})
