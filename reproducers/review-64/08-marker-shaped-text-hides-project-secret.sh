#!/usr/bin/env bash
# Defect: two text shapes the commit check now takes for the harness's own words hide a value a project's
# redaction.patterns names as secret:
#  - stored mode (secrets_check.stored_redactor -> redact._label_span): `[REDACTED:env:NAME]` counts as the harness's
#    marker, pattern matches inside it dropped, for any NAME of any case holding key/pass/token/auth/cred/secret
#    anywhere in a value; so `[REDACTED:env:key_acct_12345678]` carries the project's secret `acct_12345678` past the
#    check. 35c53c4 took only an upper-case name or a whole value (F-0146's fix); the lower-case form is new.
#  - _OWN_NOTES: `[harness: N bytes of output omitted here; M bytes in all]` has its digits replaced before any rule
#    reads the text, in every file (not only logs, and whatever wrote it); a card-number pattern's
#    `4111111111111111` passes as N.
# Correct: only what the harness itself wrote is exempt; a hand-written line holding the project's secret in either
# shape is refused, as the bare value is.
# Exit 1 while either passes the commit check, 0 when both are refused, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
sed -i 's/^  patterns: \[\]/  patterns: ["acct_[0-9]{8}", "(?<![0-9])4[0-9]{15}(?![0-9])"]/' .harness/config.yaml
grep -q 'acct_' .harness/config.yaml || exit 2
git add -A && git commit -qm "redaction: account ids and card numbers" >/dev/null 2>&1 || { echo "setup: pattern refused" >&2; exit 2; }
try() { # FILE LINE -> "committed" or "refused"
  printf '%s\n' "$2" > ".harness/$1"; git add -A
  if git commit -qm try >/dev/null 2>&1; then echo committed; git reset -q --hard HEAD~1; else echo refused; git reset -q --hard HEAD; fi
}
[ "$(try notes.txt 'account acct_12345678')" = refused ] && [ "$(try notes.txt 'card 4111111111111111')" = refused ] \
  || { echo "setup: controls not refused" >&2; exit 2; }
echo "controls 'account acct_12345678', 'card 4111111111111111': refused"
fail=0
for line in 'account [REDACTED:env:key_acct_12345678]' \
            'card [harness: 4111111111111111 bytes of output omitted here; 1 bytes in all]'; do
  r=$(try notes.txt "$line"); echo "$(printf '%-9s' "$r") '$line'"
  [ "$r" = committed ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: the project's secret passed the commit check in a shape taken for the harness's own"
exit $fail
