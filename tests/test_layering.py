"""The package's layering, checked on its source: a pure core, one git adapter, click only in
the front end. A module that breaks a rule is named with the import that breaks it."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "harness"
MODULES = sorted(PACKAGE.rglob("*.py"))
# The core takes values and returns values: no files, processes, clock, git, YAML or click.
CORE_FORBIDDEN = {"os", "subprocess", "pathlib", "time", "datetime", "click", "pygit2", "yaml", "jsonschema",
                  "harness.store", "harness.gitio", "harness.cli", "harness.history", "harness.signatures", "harness.gate",
                  "harness.runner", "harness.evidence", "harness.findings", "harness.task", "harness.approvals",
                  "harness.install"}


@functools.cache
def tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once per run: every rule below walks every module."""
    return ast.parse(path.read_text("utf-8"))


@functools.cache
def imports(path: Path) -> frozenset[str]:
    out = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return frozenset(out)


def rel(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def breaking(allowed: set[str], name: str) -> list[str]:
    return [f"{rel(p)} imports {name}" for p in MODULES
            if rel(p) not in allowed and any(i == name or i.startswith(name + ".") for i in imports(p))]


# The pure rules: the core, and the agent hooks' own (moved in beside the hooks that apply them).
PURE = ("/core/", "/agent/judge/")


def pure(path: Path) -> bool:
    return any(folder in path.as_posix() for folder in PURE)


@pytest.mark.parametrize("path", [p for p in MODULES if pure(p)], ids=rel)
def test_the_core_is_pure(path):
    bad = sorted(i for i in imports(path) for f in (*CORE_FORBIDDEN, "harness.agent")
                 if (i == f or i.startswith(f + ".")) and not i.startswith("harness.agent.judge"))
    assert not bad, f"{rel(path)} imports {bad}"
    calls = [n for n in ast.walk(tree(path))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("print", "open")]
    assert not calls, f"{rel(path)} prints or opens files"



def test_the_core_renders_no_report():
    """Reports (the gate's text, the `Next:` block, a session's opening words) are the front ends': the core
    returns values and the messages they carry, and whatever prints them lays them out."""
    renderers = [f"{rel(p)}: {n.name}" for p in MODULES if pure(p) for n in ast.walk(tree(p))
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and (n.name.startswith("render") or n.name.endswith("_context"))]
    assert not renderers, renderers


GIT_ADAPTER = {rel(p) for p in MODULES if rel(p).startswith("harness/gitio/")}


def test_only_the_git_adapter_imports_pygit2():
    assert breaking(GIT_ADAPTER, "pygit2") == []


def module_file(name: str) -> Path | None:
    """The file of a harness module name (a package's __init__.py), or None for anything else."""
    parts = name.split(".")
    if parts[0] != "harness":
        return None
    base = PACKAGE.parent.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def closure(*starts: Path) -> tuple[set[str], set[str]]:
    """(harness files, other top-level modules) that importing ``starts`` loads, followed
    transitively through harness's own modules (and the packages each one sits in)."""
    seen: set[str] = set()
    others: set[str] = set()
    todo = list(starts)
    while todo:
        path = todo.pop()
        if rel(path) in seen:
            continue
        seen.add(rel(path))
        for name in imports(path):
            parts = name.split(".")
            if parts[0] != "harness":
                others.add(parts[0])
            for n in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__ first
                found = module_file(".".join(parts[:n]))
                if found is not None:
                    todo.append(found)
    return seen, others


def test_the_hooks_fast_path_loads_nothing_of_the_adapter_but_its_environment():
    # launch.py answers a code-only commit with it (and so with the package's __init__): pygit2,
    # even loaded lazily, and click would cost that hook. Followed through every harness module
    # it imports, so an import added anywhere along the way is caught.
    files, others = closure(PACKAGE / "gitio" / "__init__.py", PACKAGE / "gitio" / "fast_path.py")
    assert files == {"harness/__init__.py", "harness/errors.py", "harness/gitio/__init__.py",
                     "harness/gitio/environment.py", "harness/gitio/fast_path.py",
                     "harness/core/__init__.py", "harness/core/code_only.py"}
    assert not others & {"pygit2", "click", "yaml", "jsonschema"}, others


def test_no_module_imports_jsonschema():
    # A runtime dependency no more (harness.store.schema_check checks the schemas): an import
    # would fail in an install without the test extra, and cost a command ~110 ms where it runs.
    assert breaking(set(), "jsonschema") == []


def test_only_the_adapters_start_processes():
    # git runs through gitio's Repository.run_proc (and its pygit2-free fast path), evidence
    # commands through runner.run_command, ssh-keygen (approval signatures) through signing.
    assert breaking(GIT_ADAPTER | {"harness/runner.py", "harness/signatures/signing.py"}, "subprocess") == []


def test_only_the_front_end_imports_click():
    front = {rel(p) for p in MODULES if "/cli/" in p.as_posix()}
    assert breaking(front, "click") == []


TESTS = Path(__file__).resolve().parent


def test_test_modules_import_helpers_only_from_helpers():
    """A helper has one home, a module of the tests/support/ package. A test module importing another
    ties the two files together (and a test function it imports is collected twice); conftest.py holds
    the fixtures, which pytest hands out itself."""
    bad = []
    for path in sorted(TESTS.glob("test_*.py")):
        for name in imports(path):
            top = name.split(".")[0]
            if top == "conftest" or top.startswith("test_"):
                bad.append(f"tests/{path.name} imports {name}")
    assert bad == []


def test_tests_holds_only_test_modules_and_conftest_and_support_never_imports_a_test_module():
    """No grab-bag beside the tests: shared code lives in tests/support/ (one module per concern), and
    what support/ holds never reaches back into a test module or conftest.py."""
    strays = sorted(p.name for p in TESTS.glob("*.py") if p.name != "conftest.py" and not p.name.startswith("test_"))
    assert strays == []
    back = [f"tests/support/{p.name} imports {name}" for p in sorted((TESTS / "support").glob("*.py"))
            for name in imports(p) if name.split(".")[0] == "conftest" or name.split(".")[0].startswith("test_")]
    assert back == []


def test_a_run_wide_build_name_taken_by_two_builders_fails_instead_of_being_shared(tmp_path_factory):
    from support.templates import once_per_run

    def build(folder: Path) -> dict:
        return {"built": True}

    assert once_per_run(tmp_path_factory, "clash-check", build, "first builder")[1] == {"built": True}
    assert once_per_run(tmp_path_factory, "clash-check", build, "first builder")[1] == {"built": True}
    with pytest.raises(AssertionError, match="two builders share the name 'clash-check'"):
        once_per_run(tmp_path_factory, "clash-check", build, "second builder")


def test_the_push_fast_path_loads_nothing_of_the_adapter_but_its_environment():
    # launch.py answers a code-only push with it: pygit2 and click are what a pre-push hook of a
    # code-only push would otherwise pay for nothing. Followed as above.
    files, others = closure(PACKAGE / "gitio" / "__init__.py", PACKAGE / "gitio" / "push_fast_path.py")
    assert files == {"harness/__init__.py", "harness/gitio/__init__.py", "harness/gitio/environment.py",
                     "harness/gitio/push_fast_path.py", "harness/core/__init__.py", "harness/core/code_only.py"}
    assert not others & {"pygit2", "click", "yaml", "jsonschema"}, others


# What a fast path's process has loaded when it answers: the import graph above follows every
# import, lazy ones included, so what a process actually loads is asked of a real one.
# It imports no more than atexit and sys itself, so that what a fast path must not load (json) can be asked.
LOADED = ("import atexit, sys\n"
          "out = sys.argv.pop(1)\n"
          "atexit.register(lambda: open(out, 'w').write('\\n'.join(sorted(sys.modules))))\n"
          "from harness.cli.launch import entry\n"
          "entry()\n")


def loaded_by(cwd: Path, args: list[str], stdin: str) -> set[str]:
    import subprocess
    import sys

    out = cwd / ".loaded.json"
    proc = subprocess.run([sys.executable, "-c", LOADED, str(out), *args], input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return set(out.read_text().splitlines())


HEAVY = {"click", "yaml", "pygit2", "jsonschema", "harness.cli.main", "harness.store.tasks", "harness.gitio.git"}


def test_the_agent_guard_answers_a_read_with_the_hosts_module_alone(h, repo):
    call = {"session_id": "s", "cwd": str(repo), "tool_name": "Read", "tool_input": {"file_path": "README.md"}}
    import json

    loaded = loaded_by(repo, ["hook", "agent", "claude", "pre-tool-use"], json.dumps(call))
    assert "harness.agent.hosts" in loaded
    assert not loaded & (HEAVY | {"bashlex", "harness.agent.judge.bypass", "dataclasses", "pathlib", "inspect", "typing",
                                  "json", "contextlib", "hashlib"}), loaded


def test_the_agent_guard_judges_a_shell_command_without_click_yaml_or_pygit2(h, repo, tmp_path, monkeypatch):
    import json

    monkeypatch.setenv("HARNESS_PARSER_TABLES", str(tmp_path / "cache"))
    config = repo / ".harness" / "config.yaml"  # filled in as people do: commands as lists of quoted words
    config.write_text(config.read_text().replace("evidence: {}", 'evidence:\n  unit_test:\n    command: ["pytest", "-q"]'))
    # `rm -rf "$BUILD_DIR"`, not `ls -la`: a plain reader is answered before the judge loads (the test below);
    # nor `rm -rf build`: a plain line is judged without bashlex (harness.agent.judge.plain_line).
    call = {"session_id": "s", "cwd": str(repo), "tool_name": "Bash", "tool_input": {"command": 'rm -rf "$BUILD_DIR"'}}
    loaded = loaded_by(repo, ["hook", "agent", "claude", "pre-tool-use"], json.dumps(call))
    assert {"bashlex", "harness.agent.bashlex_tables", "harness.agent.judge.bypass"} <= loaded
    # The notes ref of such a config.yaml is read without YAML (harness.agent.notes_ref_plain, store.plain_yaml).
    assert not loaded & (HEAVY | {"hashlib", "harness.store.settings"}), loaded


def test_the_agent_guard_answers_plain_commands_and_source_edits_before_the_judge_loads(h, repo):
    import json

    calls = [("Bash", {"command": "ls -la"}), ("Bash", {"command": "pytest -q tests"}),
             ("Edit", {"file_path": str(repo / "README.md"), "old_string": "a", "new_string": "b"})]
    for tool, tool_input in calls:
        call = {"session_id": "s", "cwd": str(repo), "tool_name": tool, "tool_input": tool_input}
        loaded = loaded_by(repo, ["hook", "agent", "claude", "pre-tool-use"], json.dumps(call))
        assert "harness.agent.quick_allow" in loaded
        assert not loaded & (HEAVY | {"bashlex", "harness.agent.judge.bypass", "harness.agent.hook_facts", "dataclasses",
                                      "pathlib", "typing", "json", "hashlib"}), (tool, loaded)


def test_the_version_is_answered_without_click_and_as_click_would(tmp_path):
    from importlib.metadata import version

    import harness

    assert harness.__version__ == version("engineering-harness")  # what click's version_option prints
    assert not loaded_by(tmp_path, ["--version"], "") & HEAVY


# What `harness status` needs beside the store and the use case: none of the CLI's, and for a task
# with no evidence neither git's object store nor the writers' redaction rules and runner.
STATUS_SPARED = {"click", "pygit2", "jsonschema", "harness.cli.main", "harness.cli.common", "harness.cli.status",
                 "harness.gitio.git", "harness.evidence.record", "harness.runner", "harness.core.redact",
                 "harness.store.secrets_check"}


def test_status_is_answered_without_click_or_the_object_store(h, repo, task):
    for args in (["status"], ["status", "--json"]):
        loaded = loaded_by(repo, args, "")
        assert {"harness.cli.status_fast", "harness.task.status"} <= loaded
        assert not loaded & STATUS_SPARED, loaded & STATUS_SPARED


def test_status_of_a_task_with_evidence_reads_git_but_loads_no_click(h, repo, task):
    h.ok("evidence", "custom", "--", "true")
    loaded = loaded_by(repo, ["status"], "")
    assert "harness.gitio.git" in loaded  # the source tree the evidence is fresh on
    assert not loaded & {"click", "jsonschema", "harness.cli.main", "harness.evidence.record", "harness.runner"}, loaded


# What a recording does not need from the standard library: each is milliseconds of the fixed cost an
# agent pays on every `harness evidence` (typing 4, datetime 3, tempfile with shutil and random 6:
# bench/hot_evidence.py times the whole). The clock, temp files, `which` and type names are
# written without them; a module used on this path that needs one imports it where it is used.
RECORDING_SPARED = {"typing", "datetime", "tempfile", "shutil", "random"}


def test_a_recording_loads_neither_click_nor_the_slow_standard_modules(h, repo, task):
    loaded = loaded_by(repo, ["evidence", "custom", "--", "true"], "")
    assert {"harness.cli.evidence_fast", "harness.evidence.record", "harness.runner"} <= loaded
    # pygit2 stands in sys.modules as a lazy module (harness.gitio.lazy_pygit2); its extension loads on first use
    heavy = RECORDING_SPARED | {"click", "pygit2._pygit2", "yaml", "jsonschema", "harness.cli.main"}
    assert not loaded & heavy, loaded & heavy


def test_status_without_evidence_loads_none_of_the_slow_standard_modules(h, repo, task):
    for args in (["status"], ["status", "--json"]):
        assert not loaded_by(repo, args, "") & RECORDING_SPARED


def test_a_code_only_push_is_answered_without_importing_subprocess(h, repo, task):
    # The fast path starts its git processes with os.posix_spawnp: subprocess's imports (re, locale,
    # threading, selectors) cost a code-only push more than the git processes themselves.
    from support.gitrepo import commit_all_ok, head

    commit_all_ok(repo, "task")
    base = head(repo)
    for i in range(3):
        (repo / "code.txt").write_text(f"revision {i}\n")
        commit_all_ok(repo, f"code {i}")
    line = f"refs/heads/main {head(repo)} refs/heads/main {base}\n"
    loaded = loaded_by(repo, ["hook", "run", "pre-push", "origin", "/nowhere/remote.git"], line)
    assert "harness.gitio.push_fast_path" in loaded
    assert not loaded & (HEAVY | {"subprocess", "harness.cli.main"}), loaded


def test_status_with_no_task_yet_loads_no_git_object_store(h, repo):
    # The list of finished tasks opens git only for a DONE task's commit; with none it is not loaded.
    for args in (["status"], ["status", "--json"]):
        assert not loaded_by(repo, args, "") & STATUS_SPARED


# What `harness status` and the session hooks load in place of these: harness.store.plain_yaml (PyYAML, and
# pickle for the copies of its parses), harness.core.value_class (dataclasses, which imports inspect),
# harness.core.sha256 (hashlib's OpenSSL binding); the clock is read only where something is written (#28).
STATUS_AND_SESSION_SPARED = {"yaml", "pickle", "dataclasses", "inspect", "hashlib", "datetime", "click", "pygit2"}


def test_status_and_the_session_hooks_read_the_harness_files_without_pyyaml(h, repo, task):
    import json

    event = json.dumps({"session_id": "s", "cwd": str(repo)})
    for args, stdin in ((["status"], ""), (["status", "--json"], ""),
                        (["hook", "agent", "claude", "session-start"], event),
                        (["hook", "agent", "claude", "stop"], event)):
        loaded = loaded_by(repo, args, stdin)
        assert "harness.store.plain_yaml" in loaded, args
        assert not loaded & STATUS_AND_SESSION_SPARED, (args, loaded & STATUS_AND_SESSION_SPARED)
