"""A finding's reproducer is run again when the finding is verified, and by CI's re-run at the commit that marks
its task DONE: one that imports a module the package no longer has fails for that reason alone, and the fixed
finding can never be verified (F-0066: the package move left two importing `harness.usecases`)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

REPRODUCERS = Path(__file__).resolve().parent.parent / "reproducers"
IMPORTED = re.compile(r"^\s*(?:from|import)\s+(harness(?:\.\w+)*)", re.M)


def imported_modules(text: str) -> list[str]:
    """The harness modules ``text`` imports (`from harness.x import y` names harness.x; `import harness.x.y`, it)."""
    return sorted(set(IMPORTED.findall(text)))


def missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:  # a parent package that is gone
        return True


@pytest.mark.parametrize("path", sorted(p for p in REPRODUCERS.rglob("*") if p.is_file()),
                         ids=lambda p: p.relative_to(REPRODUCERS).as_posix())
def test_a_reproducer_imports_only_modules_the_package_has(path):
    gone = [m for m in imported_modules(path.read_text("utf-8", "replace")) if missing(m)]
    assert not gone, f"{path.relative_to(REPRODUCERS.parent)} imports {gone}"


def test_the_scan_sees_both_spellings_and_a_module_that_is_gone():
    text = "python - <<'EOF'\nfrom harness.usecases import evidence as uc\nimport harness.gate.facts\nEOF\n"
    assert imported_modules(text) == ["harness.gate.facts", "harness.usecases"]
    assert missing("harness.usecases") and not missing("harness.gate.facts")
