"""copy (with weakref under it), which bashlex and dataclasses import, is deferred in the agent guard like
inspect: a judged command never runs its code, and whatever does use it gets the module."""

from __future__ import annotations

import json
import subprocess
import sys

LOADED = ("import atexit, sys\n"
          "out = sys.argv.pop(1)\n"
          "atexit.register(lambda: open(out, 'w').write('\\n'.join(sorted(sys.modules))))\n"
          "from harness.cli.launch import entry\n"
          "entry()\n")

USED = """
import sys
from harness.agent.deferred_imports import defer
defer()
import dataclasses
ran_on_import = "weakref" in sys.modules
@dataclasses.dataclass
class Pair:
    a: list
p = Pair([1, [2]])
copied = dataclasses.asdict(p)
import copy
print(ran_on_import, copied == {"a": [1, [2]]}, copied["a"] is not p.a, copy is sys.modules["copy"],
      copy.deepcopy({"x": [1]}) == {"x": [1]}, "weakref" in sys.modules)
"""


def test_a_judged_command_runs_none_of_copy(h, repo):
    out = repo / ".loaded"
    for command in ("rm -rf .harness/tasks", "git add -A && git commit -n -m 'x'"):  # (bashlex uses copy)
        call = {"session_id": "s", "cwd": str(repo), "tool_name": "Bash", "tool_input": {"command": command}}
        proc = subprocess.run([sys.executable, "-c", LOADED, str(out), "hook", "agent", "claude", "pre-tool-use"],
                              input=json.dumps(call), cwd=repo, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and "permissionDecision" in proc.stdout, proc.stderr
        loaded = set(out.read_text().splitlines())
        assert "weakref" not in loaded, command  # (the rules are no dataclasses, which import copy too)


def test_a_deferred_copy_is_the_module_once_used():
    out = subprocess.run([sys.executable, "-c", USED], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "True", "True", "True", "True"]
