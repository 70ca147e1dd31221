"""The agent guard's parser tables come from where its code comes from, never from a folder the agent writes:
a table planted in the user's cache folder (`~/.cache`, `$XDG_CACHE_HOME`) changes no answer (#28's task F-0001)."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

from harness.agent import bashlex_tables


def planted(folder: Path) -> Path:
    """An honest tables file in ``folder`` with the shifts on `&&` and `;` swapped (bashlex's import then fails)."""
    bashlex_tables.write_tables(folder / "probe.marshal", [], {}, {})  # the folder exists, as a cache's would
    proc = subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path\n"
                           "from harness.agent import bashlex_tables\nbashlex_tables.load(Path(sys.argv[1]))",
                           str(folder)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    [path] = folder.glob(f"{bashlex_tables.PREFIX}*.marshal")
    fmt, prods, action, goto = marshal.loads(path.read_bytes())
    for row in action.values():
        if "AND_AND" in row and "SEMICOLON" in row:
            row["AND_AND"], row["SEMICOLON"] = row["SEMICOLON"], row["AND_AND"]
    path.write_bytes(marshal.dumps((fmt, prods, action, goto)))
    return path


def ask(repo: Path, command: str, env: dict[str, str]) -> tuple[str, str, int]:
    call = {"session_id": "s", "cwd": str(repo), "tool_name": "Bash", "tool_input": {"command": command}}
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", "claude", "pre-tool-use"], cwd=repo,
                       input=json.dumps(call), capture_output=True, text=True, env=env, timeout=300)
    return p.stdout, p.stderr, p.returncode


def test_a_table_planted_in_the_user_cache_folder_changes_no_answer(h, task, repo, tmp_path):
    """F-0001 of #28's task: the guard judged with whatever table ~/.cache/engineering-harness held."""
    xdg, home = tmp_path / "xdg", tmp_path / "home"
    planted(xdg / "engineering-harness")
    planted(home / ".cache" / "engineering-harness")
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_PARSER_TABLES"}
    for where in ({"XDG_CACHE_HOME": str(xdg)}, {"HOME": str(home), "XDG_CACHE_HOME": ""}):
        assert ask(repo, "rm -rf build", {**env, **where}) == ("", "", 0)  # a silent allow, as always
        # A line bashlex reads (a plain one is read without it: harness.agent.judge.plain_line).
        out, _, code = ask(repo, 'true && git commit --no-verify -m "$(echo x)"', {**env, **where})
        assert code == 0 and "--no-verify" in out and "guard failed" not in out, out


def test_the_tables_are_kept_beside_the_guard_s_own_bytecode(monkeypatch, tmp_path):
    monkeypatch.delenv("HARNESS_PARSER_TABLES", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert bashlex_tables.cache_dir() == Path(bashlex_tables.__file__).resolve().parent / "__pycache__"


def test_whoever_starts_the_guard_may_name_the_tables_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("HARNESS_PARSER_TABLES", str(tmp_path / "tables"))
    assert bashlex_tables.cache_dir() == tmp_path / "tables"
