"""The README is a front door and the manual in docs/ follows the code (issue #26, items 1–3).

What the documentation claims about the code is read from the code: the keys the configuration schemas
know, the rules a refusal names, the legal transitions, the hook ids; every relative link resolves; and
no text a user can open cites a document they cannot.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib

import pytest
import yaml

from support.paths import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
LINKED = [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *PAGES]
BRANCHES = {"main", "master", "develop", "dev", "trunk", "head", "stable", "latest"}


def text(path) -> str:
    return path.read_text("utf-8")


def fenced_blocks(markdown: str) -> list[tuple[str, str]]:
    return re.findall(r"^```([\w.+-]*)[^\n]*\n(.*?)^```", markdown, re.S | re.M)


def test_the_readme_is_a_front_door_of_about_a_hundred_lines():
    lines = text(README).splitlines()
    assert len(lines) <= 110, f"README.md has {len(lines)} lines: reference material belongs in docs/"


def test_the_readme_pins_the_hook_repository_to_this_version_tag():
    readme = text(README)
    version = tomllib.loads(text(ROOT / "pyproject.toml"))["project"]["version"]
    configs = [yaml.safe_load(body) for lang, body in fenced_blocks(readme)
               if lang == "yaml" and "repos:" in body]
    assert configs, "README.md has no .pre-commit-config.yaml block"
    (config,) = configs
    (repo,) = config["repos"]
    rev = str(repo["rev"])
    assert rev.lower() not in BRANCHES, f"rev: {rev} is a branch name: pre-commit warns of a mutable reference"
    assert re.fullmatch(r"v\d+\.\d+\.\d+|[0-9a-f]{40}", rev), f"rev: {rev} is neither a version tag nor a commit sha"
    assert rev == f"v{version}", f"rev: {rev}, but pyproject.toml's version is {version}"
    # Each stage a listed hook runs at is one pre-commit installs.
    hooks = {hk["id"]: hk for hk in yaml.safe_load(text(ROOT / ".pre-commit-hooks.yaml"))}
    installed = set(config["default_install_hook_types"])
    for entry in repo["hooks"]:
        stages = set(hooks[entry["id"]]["stages"]) - {"manual"}
        assert stages <= installed, f"{entry['id']} runs at {stages - installed}, not in default_install_hook_types"


def test_the_readme_keeps_the_two_commands_on_a_fresh_clone():
    readme = text(README)
    for command in ("bash demo/run", "bash .ci/run"):
        assert re.search(rf"^{re.escape(command)}\s", readme, re.M), f"README.md lost `{command}`"
    assert (ROOT / "demo" / "run").is_file() and (ROOT / ".ci" / "run").is_file()


def _relative_links(markdown: str) -> list[str]:
    prose = re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    targets = re.findall(r"\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", prose)
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


@pytest.mark.parametrize("page", LINKED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_to_a_file(page):
    links = _relative_links(text(page))
    for link in links:
        target = (page.parent / link.split("#", 1)[0]).resolve()
        assert target.exists(), f"{page.relative_to(ROOT)} links to {link}, which does not exist"
        assert target.is_relative_to(ROOT), f"{page.relative_to(ROOT)} links outside the repository: {link}"
    if page == README:
        assert len(links) >= 10, links  # the front door links into the manual


def test_the_readme_links_every_page_of_the_manual_or_its_index():
    linked = {(README.parent / link.split("#", 1)[0]).resolve() for link in _relative_links(text(README))}
    assert DOCS / "index.md" in linked
    nav = yaml.safe_load(re.sub(r"!!python/name:\S+", "null", text(ROOT / "mkdocs.yml")))["nav"]
    in_nav = {page for entry in nav for page in entry.values()}
    assert in_nav == {p.name for p in PAGES}, "every page of docs/ is in mkdocs.yml's nav, and only those"


CITATION = re.compile(r"(?i)\b(?:seed|design)\s*(?:§|\\u00a7)|\bthe seed's\b")


def test_nothing_shipped_cites_a_document_the_user_cannot_open():
    cited = []
    for folder in ("harness", "templates", "skills", "hooks"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1):
                    if CITATION.search(line):
                        cited.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    for path in [README, *LINKED, ROOT / "pyproject.toml"]:
        cited += [f"{path.relative_to(ROOT)}: {m.group()}" for m in CITATION.finditer(text(path))]
    assert not cited, "cites a document that is not shipped:\n" + "\n".join(cited)


def test_the_help_speaks_for_itself():
    from click.testing import CliRunner

    from harness.cli.main import cli

    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert not CITATION.search(result.output) and "§" not in result.output


def _schema_keys(schema: dict, prefix: str = "") -> list[str]:
    keys = []
    for name, sub in schema.get("properties", {}).items():
        keys.append(prefix + name)
        keys += _schema_keys(sub, f"{prefix}{name}.")
        extra = sub.get("additionalProperties")
        if isinstance(extra, dict):
            keys.append(f"{prefix}{name}.<type>")
            keys += _schema_keys(extra, f"{prefix}{name}.<type>.")
    return keys


@pytest.mark.parametrize("name", ["config", "gate"])
def test_the_configuration_reference_documents_every_key_the_schema_knows(name):
    schema = json.loads(text(ROOT / "harness" / "schemas" / f"{name}.schema.json"))
    keys = _schema_keys(schema)
    assert len(keys) >= 10, keys
    page = text(DOCS / "configuration.md")
    missing = [key for key in keys if f"`{key}`" not in page]
    assert not missing, f"docs/configuration.md does not document these {name}.yaml keys: {missing}"


def _rules(pattern: str) -> set[str]:
    found = set()
    for path in (ROOT / "harness").rglob("*.py"):
        found |= set(re.findall(pattern, text(path)))
    return found


def test_troubleshooting_names_every_refusal_rule_with_what_to_do():
    page = text(DOCS / "troubleshooting.md")
    problems = _rules(r"Problem\([^,()]+,\s*\"([a-z][a-z0-9-]+)\"") - {"false"}  # schema_check's keyword
    denials = _rules(r"Denial\(\s*\"([a-z][a-z0-9-]+)\"")
    assert {"done-needs-gate-pass", "gate-only-tightens", "rerun-reproduces"} <= problems, problems
    assert {"no-verify", "protected-file", "approve"} <= denials, denials
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    for rule in sorted(problems | denials):
        row = [r for r in rows if r.startswith(f"| `{rule}` |")]
        assert row, f"docs/troubleshooting.md has no row for the refusal rule `{rule}`"
        assert len([cell for cell in row[0].split("|") if cell.strip()]) == 3, row[0]


def test_troubleshooting_lists_every_escalation_reason_code():
    from harness.core.states import ESCALATION_CODES

    page = text(DOCS / "troubleshooting.md")
    for code in ESCALATION_CODES:
        assert f"| `{code}` |" in page, code


def test_the_state_diagram_draws_exactly_the_legal_transitions():
    from harness.core.states import LEGAL, STATES, TERMINAL

    page = text(DOCS / "concepts.md")
    diagrams = [body for lang, body in fenced_blocks(page) if lang == "mermaid" and "CREATED --> SPECIFYING" in body]
    assert len(diagrams) == 1
    edges = set(re.findall(r"^\s*(\S+) --> (\S+?)(?::.*)?$", diagrams[0], re.M))
    assert {e for e in edges if "[*]" not in e} == set(LEGAL)
    assert {b for a, b in edges if b == "[*]"} and {a for a, b in edges if b == "[*]"} == set(TERMINAL)
    assert {s for e in edges for s in e} - {"[*]"} == set(STATES)


def test_the_changelog_keeps_a_changelog():
    changelog = text(ROOT / "CHANGELOG.md")
    version = tomllib.loads(text(ROOT / "pyproject.toml"))["project"]["version"]
    assert "Keep a Changelog" in changelog
    assert "## [Unreleased]" in changelog and f"## [{version}]" in changelog
    assert "MIT License" in text(ROOT / "LICENSE")
    assert tomllib.loads(text(ROOT / "pyproject.toml"))["project"]["license"] == "MIT"


def test_ci_builds_the_manual_strictly_before_the_tests():
    run = text(ROOT / ".ci" / "run")
    assert "'.[test,docs]'" in run
    assert run.index("mkdocs build --strict") < run.index("pytest")


@pytest.mark.slow
@pytest.mark.e2e
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocs_click") is None,
                    reason="the docs extra is not installed (pip install -e '.[docs]')")
def test_the_manual_builds_strictly_with_the_cli_reference(tmp_path):
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    cli_page = (site / "cli" / "index.html").read_text("utf-8")
    from harness.cli.main import COMMANDS

    for name in COMMANDS:  # generated from the click commands: every command is there
        assert f'id="harness-{name}"' in cli_page, name
    concepts = (site / "concepts" / "index.html").read_text("utf-8")
    assert concepts.count('class="mermaid"') >= 3  # the state machine, the findings and the loop as pictures
