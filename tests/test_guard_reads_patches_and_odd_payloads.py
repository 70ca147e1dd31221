"""The tool guard reads what a host will really run: Codex's `apply_patch` given through its shell tool
(Codex intercepts it and applies the patch itself), a patch's headers as Codex's parser reads them
(padding trimmed), and a payload whose strings hold a lone surrogate (a host written in Node runs them
with U+FFFD) — judged, never an internal error that lets the call through (#27's task F-0014..F-0016)."""

from __future__ import annotations

import json

import pytest

from support.cli import cli

LEDGER = ".harness/tasks/{tid}/events.jsonl"


def answer(repo, host: str, tool: str, tool_input: dict) -> str:
    payload = {"session_id": "s", "cwd": str(repo), "hook_event_name": "PreToolUse", "tool_name": tool,
               "tool_input": tool_input}
    r = cli(repo, "hook", "agent", host, "pre-tool-use", stdin=json.dumps(payload))
    return "deny" if r.returncode == 2 or '"deny"' in r.stdout or "deny" in r.stdout.lower() else "allow"


def patch(header: str, path: str) -> str:
    return f"*** Begin Patch\n{header}{path}\n@@\n-x\n+y\n*** End Patch\n"


@pytest.mark.parametrize("host", ["codex", "auto", "claude"])
@pytest.mark.parametrize("header", ["*** Update File: ", "*** Delete File: "])
def test_apply_patch_through_the_shell_tool_is_judged_as_the_patch(h, repo, task, host, header):
    text = patch(header, LEDGER.format(tid=task))
    for command in (f"apply_patch <<'EOF'\n{text}EOF\n", f"apply_patch '{text}'"):
        assert answer(repo, host, "shell" if host == "codex" else "Bash", {"command": command}) == "deny", command


def test_apply_patch_through_the_shell_tool_on_source_is_allowed(h, repo, task):
    text = patch("*** Update File: ", "app.py")
    assert answer(repo, "codex", "shell", {"command": f"apply_patch <<'EOF'\n{text}EOF\n"}) == "allow"


@pytest.mark.parametrize("pad", [" ", "\t", "  \t"])
@pytest.mark.parametrize("header", ["*** Update File: ", "*** Delete File: ", "*** Add File: "])
def test_a_padded_patch_header_still_names_its_path(h, repo, task, pad, header):
    text = patch(pad + header, LEDGER.format(tid=task))
    assert answer(repo, "codex", "apply_patch", {"command": text}) == "deny", text


@pytest.mark.parametrize("host", ["claude", "codex", "gemini"])
def test_a_lone_surrogate_in_a_command_is_judged_not_crashed_on(h, repo, task, host):
    tool = {"claude": "Bash", "codex": "shell", "gemini": "run_shell_command"}[host]
    assert answer(repo, host, tool, {"command": "cd .ha* && rm -r tasks \ud800/z"}) == "deny"
    assert answer(repo, host, tool, {"command": "ls \ud800"}) == "allow"


def test_a_lone_surrogate_in_a_written_path_is_judged(h, repo, task):
    denied = answer(repo, "claude", "Write", {"file_path": f"S\ud800/../{LEDGER.format(tid=task)}", "content": "x"})
    assert denied == "deny"
    assert answer(repo, "claude", "Write", {"file_path": "src/\ud800.py", "content": "x"}) == "allow"


# -- found by review (#27's task F-0019, F-0020) --------------------------------------------------

def heredoc(text: str) -> str:
    return f"apply_patch <<'EOF'\n{text}EOF\n"


@pytest.mark.parametrize("form", ["string", "argv"])
def test_apply_patch_after_cd_reads_its_paths_from_the_cd_target(h, repo, task, form):
    """F-0019: Codex accepts `cd DIR && apply_patch <<'EOF'` and applies the patch's paths in DIR."""
    script = "cd .harness && " + heredoc(patch("*** Update File: ", f"tasks/{task}/events.jsonl"))
    command = script if form == "string" else ["bash", "-lc", script]
    assert answer(repo, "codex", "shell", {"command": command}) == "deny"
    honest = "cd src && " + heredoc(patch("*** Update File: ", "app.py"))
    assert answer(repo, "codex", "shell", {"command": ["bash", "-lc", honest]}) == "allow"


@pytest.mark.parametrize("command", [
    "apply_patch < /tmp/p.patch", 'apply_patch "$(cat /tmp/p.patch)"', "cat /tmp/p.patch | applypatch",
    "apply_patch $'*** Begin Patch\\n*** Update File: .harness/x\\n*** End Patch'", "/usr/local/bin/apply_patch < p",
    "xargs -0 apply_patch < list"])
def test_a_patch_the_guard_cannot_read_is_not_handed_to_apply_patch(h, repo, task, command):
    """F-0020: Codex's apply_patch program reads its patch from an argument or stdin the line does not spell."""
    assert answer(repo, "codex", "shell", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["grep -rn apply_patch .", "git log --grep applypatch", "ls apply_patch_notes/",
                                     "cat docs/apply_patch.md"])
def test_naming_apply_patch_without_running_it_is_allowed(h, repo, task, command):
    assert answer(repo, "codex", "shell", {"command": command}) == "allow", command


# -- found by review (#27's task F-0022..F-0024) --------------------------------------------------

@pytest.mark.parametrize("run", ["ap''ply_patch", "a\\pply_patch", '"apply"_patch', "{ apply_patch", "if apply_patch"])
def test_apply_patch_under_another_spelling_is_judged_where_it_runs(h, repo, task, run):
    """F-0022: the shell reads these as `apply_patch`; Codex does not apply them itself, its program does,
    in the folder the line went to."""
    body = patch("*** Add File: ", f"tasks/{task}/events.jsonl")
    tail = {"{ apply_patch": "; }", "if apply_patch": "; then :; fi"}.get(run, "")
    command = f"cd .harness && {run} <<'EOF'{tail}\n{body}EOF\n"
    assert answer(repo, "codex", "shell", {"command": ["bash", "-lc", command]}) == "deny", command


@pytest.mark.parametrize("folder", [".harnes[s]", ".harnes?", ".h*ss", "~/../x"])
def test_a_cd_word_the_shell_expands_is_not_joined_as_written(h, repo, task, folder):
    """F-0023: `cd .harnes[s]` goes to .harness; the guard joined the word literally."""
    body = patch("*** Add File: ", f"tasks/{task}/events.jsonl")
    command = f"cd {folder} && apply_patch <<'EOF'\n{body}EOF\n"
    assert answer(repo, "codex", "shell", {"command": ["bash", "-lc", command]}) == "deny", command


def test_an_argv_patch_with_a_quote_is_read_not_refused(h, repo, task):
    """F-0024: `["apply_patch", PATCH]` is applied by Codex as given; joined and quoted, the guard could not read it."""
    honest = "*** Begin Patch\n*** Update File: app.py\n@@\n-x\n+print('hi')\n*** End Patch\n"
    assert answer(repo, "codex", "shell", {"command": ["apply_patch", honest]}) == "allow"
    forged = honest.replace("app.py", f".harness/tasks/{task}/events.jsonl")
    assert answer(repo, "codex", "shell", {"command": ["apply_patch", forged]}) == "deny"


# -- found by review (#27's task F-0025) -----------------------------------------------------------

@pytest.mark.parametrize("host,tool", [("claude", "Bash"), ("codex", "shell")])
@pytest.mark.parametrize("command", [
    'grep -rn "apply_patch" .', "rg 'applypatch' src", "git log --grep='apply_patch'",
    "sed -i 's/apply_patch/apply_diff/g' src/tool.py", 'git commit -qm "apply_patch: read the headers"',
    "cat > NOTES.md <<EOF\napply_patch is Codex's\nEOF\n", "python3 -c 'apply_patch(1)'"])
def test_naming_apply_patch_in_a_line_that_does_not_run_it_is_allowed(h, repo, task, host, tool, command):
    """F-0025: only a line that runs the program is judged by its patch."""
    assert answer(repo, host, tool, {"command": command}) == "allow", command


# -- found by review (#27's task F-0027) -----------------------------------------------------------

@pytest.mark.parametrize("path", ["$(printf .harness)/tasks/{tid}/events.jsonl", "${{HOME:+.harness}}/tasks/{tid}/events.jsonl",
                                  ".har\\\nness/tasks/{tid}/events.jsonl", "`echo .harness`/tasks/{tid}/events.jsonl"])
@pytest.mark.parametrize("host,tool", [("claude", "Bash"), ("codex", "shell")])
def test_an_unquoted_heredoc_is_expanded_by_the_shell_not_read_as_written(h, repo, task, path, host, tool):
    """F-0027: bash expands `$(…)`, `${…}`, backquotes and a backslash-newline in an unquoted here-document
    before apply_patch reads it; the guard read it as written."""
    body = patch("*** Add File: ", path.format(tid=task))
    assert answer(repo, host, tool, {"command": f"apply_patch <<EOF\n{body}EOF\n"}) == "deny", body


def test_an_unquoted_heredoc_with_nothing_to_expand_is_read(h, repo, task):
    body = patch("*** Update File: ", "app.py")
    assert answer(repo, "codex", "shell", {"command": f"apply_patch <<EOF\n{body}EOF\n"}) == "allow"


def test_a_note_quoting_a_patch_header_is_no_patch(h, repo, task):
    """Only Codex's apply_patch applies such a patch: the same headers in a note another program writes are text."""
    note = f"cat > NOTES.md <<'EOF'\n{patch('*** Update File: ', LEDGER.format(tid=task))}EOF\n"
    assert answer(repo, "codex", "shell", {"command": ["bash", "-lc", note]}) == "allow"
    assert answer(repo, "codex", "shell", {"command": ["bash", "-lc", note.replace("cat > NOTES.md", "apply_patch")]}) == "deny"
