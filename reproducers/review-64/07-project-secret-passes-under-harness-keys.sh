#!/usr/bin/env bash
# Defect: the commit check reads every value under a key of HARNESS_WRITTEN -- which holds STRUCTURAL, so `commit:`,
# `digest:`, `tree:` too -- and every key, with the harness's own rules only: a project's redaction.patterns never
# see them. So F-0176's fix ("only the harness's ids are skipped; anything else under such a key is read") and
# F-0175's ("YAML keys are read") hold for the built-in rules but not for the project's: `commit: ACME-12345678` or
# `ACME-12345678: x` in a .harness/ file passes, where `description: ACME-12345678` is refused. This change widens
# it: `verification:`, `tail_bytes:`, `log_cap_bytes:` and `stop_block_limit:` joined HARNESS_WRITTEN for any file
# (their schemas' integers/enums do not hold in a file no schema reads), so `verification: ACME-12345678`, refused
# at 35c53c4, now passes.
# Correct: a value the project's pattern names as secret is refused wherever it stands in a committed .harness/ file
# unless it is one of the harness's own ids; a key is read by the project's patterns too.
# Exit 1 while any of the forms below is committed, 0 when all are refused, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
sed -i 's/^  patterns: \[\]/  patterns: ["ACME-[0-9]{8}"]/' .harness/config.yaml
grep -q 'ACME-' .harness/config.yaml || exit 2
git add -A && git commit -qm "redaction: the project's account ids" >/dev/null 2>&1 || { echo "setup: pattern refused" >&2; exit 2; }
try() { # FILE CONTENT -> "committed" or "refused"
  printf '%s\n' "$2" > ".harness/$1"; git add -A
  if git commit -qm try >/dev/null 2>&1; then echo committed; git reset -q --hard HEAD~1; else echo refused; git reset -q --hard HEAD; fi
}
[ "$(try notes.yaml 'description: ACME-12345678')" = refused ] || { echo "setup: control not refused" >&2; exit 2; }
echo "control  notes.yaml 'description: ACME-12345678': refused"
fail=0
for c in 'notes.yaml|commit: ACME-12345678' 'notes.yaml|digest: "ACME-12345678 (see ticket)"' \
         'notes.yaml|verification: ACME-12345678' 'notes.yaml|tail_bytes: ACME-12345678' \
         'notes.yaml|ACME-12345678: the account' 'notes.json|{"commit": "ACME-12345678"}' \
         'notes.json|{"ACME-12345678": "the account"}'; do
  r=$(try "${c%%|*}" "${c#*|}"); echo "$(printf '%-9s' "$r") ${c%%|*} '${c#*|}'"
  [ "$r" = committed ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: the project's secret passed the commit check under a harness key or as a key"
exit $fail
