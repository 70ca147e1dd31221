#!/usr/bin/env bash
# Defect (harness/evidence/runner_names.py _asked): the probe that asks the worktree run's interpreters which folders
# of the repository they import from (PASS_TO_PASS puts those folders' worktree counterparts first, and protects a
# module added there in place of one pytest imports) runs with the caller's environment minus PYTHONPATH, while the
# run itself gets runner.clean_env() (PATH, HOME, locale...). A variable the run drops changes what the probe sees:
# with PYTHONNOUSERSITE=1 set by whoever runs `harness evidence pass_to_pass`, the probe misses a folder of the
# repository a user-site `.pth` puts on the path, which the run (no PYTHONNOUSERSITE) imports from.
# Correct: the probe asks with the environment the run gets, so its answer does not depend on the caller's
# PYTHON* variables (read 159 noticed it).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); export T; trap 'rm -rf "$T"' EXIT
base=$(python -c 'import sys; print(sys._base_executable)') || exit 2
export HOME=$T/home && mkdir -p "$HOME" "$T/root/lib" || exit 2
usersite=$(env -u PYTHONNOUSERSITE "$base" -c 'import site; print(site.getusersitepackages())') || exit 2
"$base" -c 'import site, sys; sys.exit(0 if site.ENABLE_USER_SITE else 1)' 2>/dev/null \
  || { echo "setup failed: $base has no user site"; exit 2; }
mkdir -p "$usersite" && echo "$T/root/lib" > "$usersite/lib.pth" || exit 2
cat > "$T/probe.py" <<'PY'
import sys
from pathlib import Path
from harness.evidence import runner_names
print(runner_names.runner_folders([sys.argv[2], "-m", "pytest"], Path(sys.argv[1])))
PY
plain=$(env -u PYTHONNOUSERSITE python "$T/probe.py" "$T/root" "$base") || exit 2
hidden=$(PYTHONNOUSERSITE=1 python "$T/probe.py" "$T/root" "$base") || exit 2
echo "probe without PYTHONNOUSERSITE: $plain; with it: $hidden"
[ "$plain" = "$hidden" ] && exit 0 || exit 1
