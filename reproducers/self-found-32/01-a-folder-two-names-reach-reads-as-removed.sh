#!/usr/bin/env bash
# Defect (harness/history/rerun/isolation.py RerunGuard.learn): an interpreter learned after the job's first
# fingerprint has its spots fingerprinted alone and added to the baseline; a folder two names reach (a PATH folder
# that is a symlink to the interpreter's bin/, as /bin is to /usr/bin on a merged-/usr system) is named by the
# first name of the set it is taken with, so the later whole fingerprint names it otherwise and reads every entry
# the learned fingerprint named as removed: a re-run that changed nothing poisons the audit ("removed /usr/bin (and
# 1062 more)", seen with Debian's python, whose base prefix is /usr).
# Correct: learning an interpreter leaves a fingerprint that the next whole one matches when nothing changed.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
mkdir -p "$T/home" "$T/repo" && git -C "$T/repo" init -q -b main || exit 2
python -m venv --without-pip "$T/tools" || { echo "setup failed: venv"; exit 2; }
ln -s "$T/tools/bin" "$T/a-link-to-tools-bin" || exit 2
python - "$T" <<'PY'
import sys
from pathlib import Path
from harness.gitio.git import Git
from harness.history.rerun.isolation import RerunGuard
T = Path(sys.argv[1])
env = {"PATH": f"{T}/a-link-to-tools-bin:/usr/bin:/bin", "HOME": str(T / "home")}
guard = RerunGuard(Git(T / "repo"), environ=env)   # the job's first fingerprint: PATH names tools/bin by its link
guard.learn([str(T / "tools/bin/python")])         # a later commit's command starts the tools' python
found = guard.after("0" * 40, "nothing at all")    # nothing ran in between
if found:
    print(f"defect: nothing ran, yet {len(found)} change(s) read: {found[0]}")
    sys.exit(1)
print("ok: nothing ran and nothing changed")
PY
