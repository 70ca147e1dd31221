#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 60, of F-0135's fix (harness/store/validate.py): `_shown` now decodes a `!!binary` VALUE and redacts it, but a
# `!!binary` mapping KEY is still printed as str(bytes), i.e. its repr, by the two other places _described writes a
# name: the unknown-field list (`red.redact(str(n))`, additionalProperties) and the field path
# (`red.redact(str(p))`). repr escapes the tab of `--password<TAB>VALUE` to `\t` (and a non-ASCII byte to `\xNN`),
# so secret_flag no longer matches and VALUE is printed in clear by the commit refusal and by `harness status`.
# Control: the same name as a plain string key is redacted.
# Exit 1 while the value appears in status or the refusal; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
V=Tr0ub4dorHorse99x
rc=0
check() {  # $1: label; $2: where (top|evidence); $3: the key, as YAML
  git checkout -q HEAD -- .harness/config.yaml || exit 2
  python - "$2" "$3" <<'PY' || exit 2
import re, sys
p = ".harness/config.yaml"; t = open(p, encoding="utf-8").read()
if sys.argv[1] == "top":
    new = t + "? " + sys.argv[2] + "\n: 1\n"
else:
    new = re.sub(r"^evidence:.*$", lambda m: "evidence:\n  ? " + sys.argv[2] + "\n  : 5", t, count=1, flags=re.M)
assert new != t
open(p, "w", encoding="utf-8").write(new)
PY
  git add -A >/dev/null
  out=$(git commit -qm edit 2>&1) && { echo "setup: commit accepted ($1)" >&2; exit 2; }
  st=$(harness status 2>&1)
  printf '%s\n' "$st" | grep -qE 'unknown field|field evidence' || { echo "setup: status names no schema problem ($1)" >&2; exit 2; }
  for what in "commit refusal" "status"; do
    text=$([ "$what" = status ] && printf '%s' "$st" || printf '%s' "$out")
    if printf '%s' "$text" | grep -qF -- "$V"; then
      echo "$1, $what: prints the value: $(printf '%s\n' "$text" | grep -m1 -F -- "$V" | sed "s/$V/<the value>/g" | cut -c1-220)"; rc=1
    else echo "$1, $what: value not printed"; fi
  done
  git reset -q
}
B=$(printf -- '--password\t%s' "$V" | base64 -w0) || exit 2
check 'control, a string key at the top level' top '"--password\t'$V'"'
[ $rc = 0 ] || { echo "setup: the control prints the value" >&2; exit 2; }
check '!!binary key at the top level (unknown field)' top "!!binary $B"
check '!!binary key under evidence (field path)' evidence "!!binary $B"
exit $rc
