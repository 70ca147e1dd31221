#!/usr/bin/env bash
# Defect: `harness install --server` in a bare repository served by Gitea renames Gitea's generated
#   hooks/pre-receive to pre-receive.pre-harness and chains it (harness/install/shims.py::_write_shims,
#   hooks/native-hook `"$0.pre-harness"`). Gitea's hook is a dispatcher that runs
#   `${GIT_DIR}/hooks/$(basename $0).d/*` -- now `pre-receive.pre-harness.d/*`, which does not exist -- so
#   Gitea's own hooks/pre-receive.d/gitea (branch protection, push permissions) never runs again and
#   every push it refused is accepted, while the install prints "kept your pre-receive hook: it runs first".
#   (Any `<hook>.d/` multiplexer, a very common pattern, breaks the same way.)
# Correct: the server's existing pre-receive keeps running as before (e.g. the harness goes into
#   pre-receive.d/, or the existing hook is chained under a name it still answers to), or the install refuses
#   and changes nothing; never a "kept" hook that no longer runs.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; cd "$T" || exit 2
git init -q --bare -b main server.git || exit 2
H=server.git/hooks
# Gitea's generated dispatcher, as modules/repository/hooks.go writes it
printf '#!/usr/bin/env bash\ndata=$(cat)\nexitcodes=""\nhookname=$(basename $0)\nGIT_DIR=${GIT_DIR:-$(dirname $0)}\n\nfor hook in ${GIT_DIR}/hooks/${hookname}.d/*; do\ntest -x "${hook}" && test -f "${hook}" || continue\necho "${data}" | "${hook}"\nexitcodes="${exitcodes} $?"\ndone\n\nfor i in ${exitcodes}; do\n[ ${i} -eq 0 ] || exit ${i}\ndone\n' > $H/pre-receive || exit 2
chmod +x $H/pre-receive && mkdir $H/pre-receive.d || exit 2
# stands in for Gitea's `gitea hooks pre-receive`: branch `release` is protected
cat > $H/pre-receive.d/gitea <<'X'
#!/bin/sh
while read old new ref; do
  case "$ref" in refs/heads/release) echo "Gitea: branch release is protected: push denied" >&2; exit 1;; esac
done
exit 0
X
chmod +x $H/pre-receive.d/gitea || exit 2
git clone -q server.git c 2>/dev/null && cd c || exit 2
( harness init && harness install && echo x > x && git add -A && git commit -qm adopt && git push -q origin main ) >/dev/null 2>&1 || exit 2
git push -q origin main:release >/dev/null 2>&1 && { echo "setup: protection hook did not refuse"; exit 2; }

inst=$(cd ../server.git && harness install --server --allow-non-fast-forward 2>&1); irc=$?
echo "$inst" | sed 's/^/  install --server: /' | head -2
if [ $irc -ne 0 ]; then
  grep -q 'hookname=\$(basename \$0)' ../$H/pre-receive && [ ! -e ../$H/pre-receive.pre-harness ] \
    && { echo "OK: install refused, Gitea's hook untouched"; exit 0; }
  echo "install failed and left the hooks changed"; exit 1
fi
echo y > y && git add y && git commit -qm y >/dev/null 2>&1 || exit 2
out=$(git push origin main:release 2>&1); prc=$?
if [ $prc -eq 0 ]; then
  echo "DEFECT: after harness install --server, a push to Gitea's protected branch is accepted:"
  echo "$out" | sed 's/^/  push: /' | head -4
  exit 1
fi
out=$(git push origin main 2>&1) || { echo "push to main refused: $out"; exit 1; }
case "$out" in *"harness: pre-receive"*) echo "OK: Gitea's protection and the harness pre-receive both run"; exit 0;; esac
echo "the harness pre-receive did not run"; exit 1
