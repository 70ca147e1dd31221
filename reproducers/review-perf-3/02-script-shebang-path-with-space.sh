#!/bin/bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The `harness` command installed from the wheel into a venv whose path holds a space must run, as the
# [project.scripts] console script did (pip writes it with a /bin/sh trampoline); the wheel's own script
# gets a bare `#!/path with space/python3` line from pip, which the kernel splits at the space.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pip wheel -q --no-deps --no-build-isolation -w "$tmp/whl" "$here" >/dev/null 2>&1 || { echo "wheel build failed"; exit 2; }
venv="$tmp/My Projects/venv"
mkdir -p "$tmp/My Projects"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --no-deps "$tmp"/whl/*.whl >/dev/null 2>&1 || { echo "install failed"; exit 2; }
# the dependencies: the repo venv's site-packages, after the installed wheel on sys.path
"$here/.venv/bin/python" -c 'import site;print(site.getsitepackages()[0])' \
  > "$("$venv/bin/python" -c 'import site;print(site.getsitepackages()[0])')/deps.pth"
echo "first line: $(head -1 "$venv/bin/harness")"
"$venv/bin/python" -m harness --help >/dev/null || { echo "python -m harness fails too: setup problem"; exit 2; }
if "$venv/bin/harness" --help >/dev/null; then echo "harness runs"; exit 0; fi
echo "DEFECT: \`harness\` does not start from a venv whose path holds a space"; exit 1
