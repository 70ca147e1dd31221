"""Every `harness` command the README and the manual show parses, and both gate before they advance."""

from __future__ import annotations

import re
from pathlib import Path

from support.paths import documentation

ROOT = Path(__file__).resolve().parent.parent


def test_every_harness_command_in_the_readme_parses(tmp_path, monkeypatch):
    from support.skill_commands import command_lines, files_named, mentions, parse

    # The README and the manual in docs/: their prose names placeholders (`harness evidence TYPE -- CMD`):
    # give them a real value. Optional parts written as `[--from REV]` are taken as given.
    readme = documentation().replace(" TYPE", " unit_test")
    readme = readme.replace("[--", "--").replace("] [", " ").replace("]`", "`")
    monkeypatch.chdir(tmp_path)
    lines, spans = command_lines(readme), mentions(readme)
    # `approve gate-change|config-change` names alternatives: each must exist.
    spans = [re.sub(r"\S+\|\S+", alt, span) for span in spans for alt in
             (re.search(r"\S+\|\S+", span).group().split("|") if "|" in span else [""])]
    assert len(lines) >= 15
    for line in lines + spans:
        for name in files_named(line) + re.findall(r"\b[A-Z][A-Z_]{2,}\b", line):  # PATH, FILE: files that exist
            (tmp_path / name).write_text("")
    for line in lines:
        parse(line)
    for span in spans:
        parse(span, complete=False)


def test_the_readme_documents_gate_before_advance():
    # The README's quickstart and the manual's walk-through (docs/usage.md) both gate first.
    readme = (ROOT / "README.md").read_text("utf-8")
    usage = (ROOT / "docs" / "usage.md").read_text("utf-8")
    assert readme.index("\nharness gate ") < readme.index("\nharness converge --apply")
    assert usage.index("harness gate                           # first") < usage.index("harness converge --apply")
