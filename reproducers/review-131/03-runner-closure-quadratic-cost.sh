#!/usr/bin/env bash
# Defect (performance): harness/evidence/pass_to_pass.py _Tested.__init__ (new with the runner closure, F-0456/F-0457)
# reads every base test file and every module they import through Git.read_at (harness/gitio/revisions.py), which
# resolves `repo[commit].tree[rel]` afresh on each call: a lookup in a folder of n entries costs O(n) (about 2 ms per
# file in a folder of 4000), so the closure costs O(files x folder size) - quadratic. It runs whenever a configured
# command's runners name any code file (`make test` running `python scripts/run.py` is enough), in every
# protected_changes() call: pass_to_pass, fail_to_pass and the history re-run each pay it again, with no memo. On a
# repository with 4000 test modules and 4000 modules (one folder each) protected_changes() went from ~7 s at 27bf2087 to
# ~25 s at aa2efe24 on this machine; the closure's cost grows ~10x when the suite grows 4x.
# Correct behaviour: the closure's cost grows linearly with the files it reads (one tree walk / a path index, not a
# lookup per file from the commit's root), so quadrupling the suite about quadruples it.
# This script times run_by_runners() for a suite of 1000 and of 4000 test modules (same layout) and exits 1 when the
# larger one costs more than 7x the smaller (linear: ~4x; now ~10x or more). Exit 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
cd "$T" || exit 2
python - <<'PY'
import os, subprocess, sys, time
from pathlib import Path

def build(n):
    root = Path(f"repo{n}")
    for d in ("pkg", "tests", "scripts"):
        (root / d).mkdir(parents=True)
    (root / "pkg/__init__.py").write_text("")
    for i in range(n):
        imports = "".join(f"from pkg import m{j}\n" for j in range(max(0, i - 3), i))
        (root / f"pkg/m{i}.py").write_text(imports + f"def f():\n    return {i}\n" + "x = 1\n" * 50)
        (root / f"tests/test_m{i}.py").write_text(f"from pkg import m{i}\n\n\ndef test_f():\n    assert m{i}.f() == {i}\n")
    (root / "scripts/run.py").write_text("import subprocess, sys\nsys.exit(subprocess.call([sys.executable, '-m', 'pytest', 'tests']))\n")
    (root / "Makefile").write_text("test:\n\tpython scripts/run.py\n")
    for argv in (["git", "init", "-q", "-b", "main", "."], ["git", "add", "-A"], ["git", "commit", "-qm", "base"]):
        if subprocess.run(argv, cwd=root, capture_output=True).returncode:
            print("setup failed:", argv); sys.exit(2)
    return root

def cost(root):
    from harness.gitio.git import Git
    from harness.evidence import pass_to_pass as p
    g = Git(root.resolve())
    base = g.run(["rev-parse", "HEAD"]).strip()
    files = set(g.files_of(g.source_tree(base)))
    tests = sorted(f for f in files if f.startswith("tests/"))
    t = time.perf_counter()
    out = p.run_by_runners(g, base, {"Makefile"}, files, [], tests)
    took = time.perf_counter() - t
    if "scripts/run.py" not in out:
        print("setup: scripts/run.py not found as a runner's"); sys.exit(2)
    return took

small, large = cost(build(1000)), cost(build(4000))
print(f"run_by_runners: 1000 test modules {small:.2f} s, 4000 test modules {large:.2f} s (x{large / small:.1f})")
if large > 7 * small:
    print("DEFECT: the runner closure's cost grows quadratically with the suite"); sys.exit(1)
print("FIXED: the cost grows about linearly"); sys.exit(0)
PY
