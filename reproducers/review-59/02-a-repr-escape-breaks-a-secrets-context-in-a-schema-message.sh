#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 59: F-0131's fix (harness/store/validate.py _shown) shows a value of none of JSON's types (a `!!set`, a
# `!!pairs` tuple, `!!binary` bytes) by redact(repr(value)). repr escapes what the rules read as context or as the
# secret itself, and the redactor's views do not undo those escapes: a tab becomes the two characters `\t`
# (secret_flag's `--password[ \t]+VALUE` no longer matches), and a non-ASCII byte of `!!binary` becomes `\xNN`,
# which the views decode one byte to one character (a secret-named variable's value `pässwort…` is no longer its
# spelling). A string in a list is redacted as it is; the same string in a tuple or a set is printed in clear by
# the commit refusal and by `harness status` ("… is not of type 'string'").
# Exit 1 while the value appears in status or the refusal; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
V=Tr0ub4dorHorse99x
export DB_PASSWORD='pässwört-Zq8xK2mP9'; VB=Zq8xK2mP9
B=$(printf 'deploy with %s' "$DB_PASSWORD" | base64 -w0) || exit 2
rc=0
check() {  # $1: label; $2: the value written for `ref:`; $3: what must not be printed
  git checkout -q HEAD -- .harness/config.yaml || exit 2
  python - "$2" <<'PY' || exit 2
import sys
p = ".harness/config.yaml"; t = open(p, encoding="utf-8").read()
new = t.replace("  ref: refs/notes/harness\n", "  ref: " + sys.argv[1] + "\n", 1)
assert new != t
open(p, "w", encoding="utf-8").write(new)
PY
  git add -A >/dev/null
  out=$(git commit -qm edit 2>&1) && { echo "setup: commit accepted ($1)" >&2; exit 2; }
  st=$(harness status 2>&1)
  line=$(printf '%s\n' "$st" | grep -m1 'not of type')
  [ -n "$line" ] || { echo "setup: status names no schema problem ($1)" >&2; exit 2; }
  for what in "commit refusal" "status"; do
    text=$([ "$what" = status ] && printf '%s' "$st" || printf '%s' "$out")
    if printf '%s' "$text" | grep -qF -- "$3"; then
      echo "$1, $what: prints the value: $(printf '%s\n' "$text" | grep -m1 -F -- "$3" | sed "s/$3/<the value>/g")"; rc=1
    else echo "$1, $what: value not printed"; fi
  done
  git reset -q
}
check 'control, a list' '["--password\t'$V'"]' "$V"   # the str path: redacted
[ $rc = 0 ] || { echo "setup: the control prints the value" >&2; exit 2; }
check '!!set' '!!set {"--password\t'$V'": null}' "$V"
check '!!pairs' '!!pairs [{"--password\t'$V'": 1}]' "$V"
check '!!binary' "!!binary $B" "$VB"
exit $rc
