#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# FALSE DENIAL. "A cd the guard cannot work out refuses the rest" (bypass.py check_shell `lost`,
# shell_folders.entered -> None for any unresolved word) now refuses ordinary agent lines:
#  - a loop over LITERAL words (or a glob under a named folder) entering each one, the usual monorepo idiom:
#      for pkg in api web worker; do (cd services/$pkg && go test ./...); done
#      for d in packages/*; do (cd "$d" && npm test); done
#  - a fresh temporary folder: cd "$(mktemp -d)" && git init -q ..., tmp=$(mktemp -d) && cd "$tmp" && ...
# Loop words written on the line are known (the loop body is already judged per folder), and mktemp -d
# makes a new empty folder outside the repository. Exit 1 while any is denied, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p services/api services/web services/worker packages/a packages/b
for c in "for pkg in api web worker; do (cd services/\$pkg && go test ./...); done" \
         "for d in packages/*; do (cd \"\$d\" && npm test); done" \
         "for d in src tests; do cd \$d && ls && cd ..; done" \
         "cd \"\$(mktemp -d)\" && git init -q && echo ok" \
         "tmp=\$(mktemp -d) && cd \"\$tmp\" && touch x && ls"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = deny ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: ordinary loops over folders and temporary folders are refused as unknown cds"
exit $fail
