#!/bin/bash
# A deeply nested (600 levels) but "plain" YAML file makes harness.store.plain_yaml recurse past
# Python's limit; yamlio.parse only catches RecursionError on the PyYAML path, so `harness status`
# dies with a traceback (exit 1) instead of "nested more than 64 levels deep (refused)" (exit 2, as
# at 615f161), and the hooks report a crash log instead of the refusal.
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export HARNESS_REPO="$here"
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 || exit 2
python -c "
print('notes:')
print(''.join(' '*(i+2)+'a:\n' for i in range(600)), end='')
" > .harness/config.yaml || exit 2
harness task new t >/dev/null 2>&1
harness gate >/dev/null 2>&1; echo "gate rc=$? (615f161: 2, invalid; 1 means BLOCKED)"
harness converge >/dev/null 2>&1; echo "converge rc=$? (615f161: 2; 1 means CONTINUE)"
out=$(harness status 2>&1); rc=$?
echo "$out" | tail -2; echo "status rc=$rc"
if echo "$out" | grep -q "RecursionError\|Traceback"; then exit 1; fi
echo "$out" | grep -q "nested more than" && exit 0
exit 1
