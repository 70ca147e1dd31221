"""The dataclass code the guard keeps beside its parser tables is what dataclasses itself compiles: no
compiler flag of the harness's own module (its `from __future__ import annotations`) leaks into it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent("""
    import dataclasses, json, sys
    compiled = None
    if sys.argv[1] == "cached":
        from harness.agent import dataclass_code
        compiled = dataclass_code.install(sys.argv[2])
    @dataclasses.dataclass
    class P:
        a: int
        b: str = "x"
    if compiled is not None:
        dataclass_code.finish(compiled)
    print(json.dumps({"annotations": {k: str(v) for k, v in P.__init__.__annotations__.items()},
                      "doc": P.__doc__}))
""")


def _probe(*args: str) -> str:
    return subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True,
                          timeout=120).stdout


def test_a_class_built_from_cached_code_is_the_class_dataclasses_builds(tmp_path):
    plain = _probe("plain")
    assert _probe("cached", str(tmp_path)) == plain  # the first run compiles and keeps the code
    assert _probe("cached", str(tmp_path)) == plain  # the next reads it back
