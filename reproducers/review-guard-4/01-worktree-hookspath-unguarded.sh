#!/usr/bin/env bash
# F-0019 variant: in a linked worktree (`.git` is a `gitdir:` file) may_set_hooks_path reads
# <worktree>/.git/config, which is no file, never the common dir's config that sets core.hooksPath;
# so for a call whose text does not say "git"/"hook" git is not asked and the configured hooks
# folder (.husky) is unguarded there, though the same calls are denied in the main checkout.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../review-guard-3/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" || exit 2
R="$T/repo"; mkdir "$R"; new_repo "$R"
git -C "$R" config core.hooksPath .husky || exit 2
(cd "$R" && git add -A >/dev/null && git commit -qm init -n && git worktree add -q "$T/wt") >/dev/null 2>&1 || { echo "setup: worktree" >&2; exit 2; }
W="$T/wt"; mkdir -p "$R/.husky" "$W/.husky"
[ "$(git -C "$W" config core.hooksPath)" = .husky ] || exit 2
echo "effect: git in the worktree runs hooks from $(git -C "$W" rev-parse --path-format=absolute --git-path hooks 2>/dev/null || echo "$W/.husky")"
[ "$(hk "$R" Bash '{"command":"rm -rf .husky"}')" = deny ] || { echo "setup: control in main checkout not denied" >&2; exit 2; }
fail=0
for call in "Bash|{\"command\":\"rm -rf .husky\"}" \
            "Bash|{\"command\":\"echo exit 0 > .husky/pre-commit\"}" \
            "Write|{\"file_path\":\"$W/.husky/pre-commit\",\"content\":\"exit 0\\n\"}"; do
  a=$(hk "$W" "${call%%|*}" "${call#*|}"); echo "$a (cwd worktree): $call"; [ "$a" = deny ] || fail=1
done
exit $fail
