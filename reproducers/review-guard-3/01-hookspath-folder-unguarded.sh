#!/usr/bin/env bash
# A configured core.hooksPath folder (here .husky, where `harness install` puts its hooks) is guarded
# only when the command/path text happens to contain "git" or "hook" (facts.git_setup reads
# core.hooksPath only then; quick_allow mirrors the same condition). Exit 1 while the defect exists.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
R="$T/repo"; mkdir "$R"; git init -q "$R" && git -C "$R" config core.hooksPath .husky || exit 2
new_repo "$R"
[ -f "$R/.husky/pre-commit" ] || { echo "setup: harness install did not write .husky/pre-commit" >&2; exit 2; }
# control: the same hook, named with "git" in the command line, is refused
[ "$(hk "$R" Bash '{"command":"rm .husky/pre-commit; true git"}')" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for call in 'Write|{"file_path":".husky/pre-commit","content":"exit 0\n"}' \
            'Edit|{"file_path":".husky/pre-commit","old_string":"a","new_string":"b"}' \
            'Bash|{"command":"rm .husky/pre-commit"}' \
            'Bash|{"command":"echo exit 0 > .husky/pre-commit"}'; do
  a=$(hk "$R" "${call%%|*}" "${call#*|}"); echo "$a: $call"; [ "$a" = deny ] || fail=1
done
exit $fail
