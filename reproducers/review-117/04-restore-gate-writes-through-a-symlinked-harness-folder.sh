#!/usr/bin/env bash
# Defect: restore_gate (harness/install/initialize.py) writes (fsio.atomic_write) or deletes (Path.unlink)
# <root>/.harness/gate.yaml without checking that .harness/ is a real folder of the work tree. Where .harness is a
# symlink to a folder outside the repository, `harness init --restore-gate` overwrites that outside folder's
# gate.yaml with HEAD's (or deletes it and writes init's, where HEAD holds none), prints "restored
# .harness/gate.yaml ..." and names `harness status`, which then refuses ".harness: a symlink inside .harness/".
# Plain `harness init` only creates missing files; --restore-gate replaces or deletes an existing file outside the
# repository. The rest of the harness refuses links inside .harness/ (store/source.py FsSource._plain,
# store/bounded.py "cannot write through a symlink").
# Correct: refused (non-zero), naming the link; nothing outside the work tree is written or deleted.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" "$T/elsewhere" && cd "$T/repo" || exit 2
setup() {
  git init -q -b main && echo 'x = 1' > app.py && git add . && git commit -qm init &&
  harness init >/dev/null && git add -A && git commit -qm 'adopt the harness' --no-verify &&
  printf 'someone else'"'"'s file, outside the repository\n' > "$T/elsewhere/gate.yaml" &&
  cp "$T/elsewhere/gate.yaml" "$T/elsewhere.orig" &&
  rm -rf .harness && ln -s "$T/elsewhere" .harness
}
setup || { echo "setup failed"; exit 2; }
out=$(harness init --restore-gate 2>&1); rc=$?
echo "restore-gate (exit $rc): $out"
if ! cmp -s "$T/elsewhere/gate.yaml" "$T/elsewhere.orig"; then
  echo "DEFECT: a file outside the repository was replaced: $T/elsewhere/gate.yaml now starts: $(head -c 60 "$T/elsewhere/gate.yaml" 2>&1)"
  exit 1
fi
exit 0
