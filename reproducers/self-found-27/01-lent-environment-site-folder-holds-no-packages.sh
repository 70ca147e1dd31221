#!/usr/bin/env bash
# Defect (harness/findings/shadow_env.py, the shadow of the project's virtual environment that `harness finding
# regression --failing-at` and `finding reproduce` lend to a throw-away checkout): the shadow's site folder (the one
# its interpreter's sysconfig names as purelib) holds only `.pth` files, one a path line to the real site-packages.
# A reproducer that hands that folder to a second virtual environment by a path line (as read 153's F-0540's does to
# give a test venv pytest) finds no package there: a path line adds a folder without reading the `.pth` files in it.
# So the reproducer that confirmed F-0540 exits 2 ("No module named pytest") at the commit before its fix, and
# `harness finding regression F-0540 --failing-at <tests commit>` is refused as "fails for another reason".
# Correct: the shadow's site folder holds the real one's packages (linked), as the real folder does, so a second
# interpreter given it by a path line imports them; the checkout's code still comes from the checkout.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
command -v python >/dev/null || { echo "setup failed: no python in $here/.venv"; exit 2; }
mkdir -p "$T/root" "$T/checkout"
python -m venv --without-pip "$T/root/.venv" || exit 2
site=$("$T/root/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 2
echo "WHERE = 'site-packages'" > "$site/installed_dep.py"
echo "$T/root" > "$site/editable_app.pth"
echo "WHERE = 'working tree'" > "$T/root/app.py"
echo "WHERE = 'checkout'" > "$T/checkout/app.py"
python -m venv --without-pip "$T/second" || exit 2
second=$("$T/second/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 2
python - "$T" "$second" <<'PY'
import subprocess, sys
from pathlib import Path
from harness.findings.checkout_env import lent
T, second = Path(sys.argv[1]), Path(sys.argv[2])
with lent(T / "root", T / "checkout", {".venv"}.__contains__) as pythons:
    shadow = T / "checkout/.venv/bin/python"
    folder = subprocess.run([str(shadow), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                            capture_output=True, text=True, check=True).stdout.strip()
    (second / "borrowed.pth").write_text(folder + "\n")
    got = subprocess.run([str(T / "second/bin/python"), "-c", "import installed_dep; print(installed_dep.WHERE)"],
                         capture_output=True, text=True)
    app = subprocess.run([str(shadow), "-I", "-c", "import app; print(app.WHERE)"], cwd="/", capture_output=True,
                         text=True).stdout.strip()
if app != "checkout":
    print(f"setup failed: the shadow imports app from {app!r}"); sys.exit(2)
if got.returncode != 0:
    print("DEFECT: a second environment given the lent environment's site folder imports none of its packages:")
    print("       ", got.stderr.strip().splitlines()[-1]); sys.exit(1)
print("fixed: the lent environment's site folder holds its packages"); sys.exit(0)
PY
