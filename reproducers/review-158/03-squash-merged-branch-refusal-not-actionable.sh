#!/usr/bin/env bash
# Defect: after a PR that carried an approved gate-change is squash-merged (or rebase-merged) on the forge and its
#   branch deleted, the branch - still holding the original approving commit - cannot be pushed again (a follow-up
#   or stacked PR, a push to a new ref), and the push guard's refusal (harness/signatures/published_line.py
#   SpentOnLine.where via trust.Signers.on_line; worded in the approvals check) is neither honest nor actionable: it
#   says the approval "was given for an earlier change ... on whichever branch it is copied to" (nothing was copied:
#   this is the very commit the human approved) and sends the user to "a human runs `harness approve gate-change`",
#   which on that branch answers "does not loosen what is committed: no approval needed". Merging origin/main into the
#   branch - what a user does next - does not help either (the judged commit is the old one, whose history never
#   holds main's squash). Only rebasing onto main (dropping the now-empty commit) works, and nothing says so. docs/
#   approvals.md says only merge commits and fast-forwards keep an approval counting; the refusal is the defect here.
# Correct: the refusal of a commit whose approval the published line holds because a squash/rebase merge copied it
#   there names the way out that works (rebase the branch onto the protected branch, or drop the merged commits), and
#   does not recommend an `approve` that will say nothing needs approval. (Accepting the push also counts as fixed.)
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME="$T/home"; mkdir -p "$HOME"
export GIT_AUTHOR_NAME=h GIT_AUTHOR_EMAIL=h@x GIT_COMMITTER_NAME=h GIT_COMMITTER_EMAIL=h@x
ssh-keygen -q -t ed25519 -N '' -f "$T/human" -C human >/dev/null || exit 2
git init -q --bare -b main "$T/srv.git" || exit 2
R="$T/repo"; mkdir "$R" && cd "$R" || exit 2
( git init -q -b main && echo a > a.txt && harness init && echo "h@x $(cut -d' ' -f1,2 "$T/human.pub")" \
    > .harness/allowed_signers && harness install && git add -A && git commit -qm adopt \
  && git remote add origin "$T/srv.git" && git push -q origin main ) >/dev/null 2>&1 || exit 2
git checkout -q -b feat
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
script -qec "harness approve gate-change --key $T/human" /dev/null <<<"approve" >"$T/approve.log" 2>&1
grep -q "approved by" "$T/approve.log" || { cat "$T/approve.log"; exit 2; }
git add -A && git commit -qm "feat: unit_test optional (approved)" >/dev/null 2>&1 || exit 2
echo b > b.txt && git add -A && git commit -qm "feat: code" >/dev/null 2>&1 || exit 2
git push -q origin feat >/dev/null 2>&1 || { echo "setup: push feat"; exit 2; }
# The PR is squash-merged on the forge (a second clone does it) and its branch deleted.
git clone -q "$T/srv.git" "$T/forge" && ( cd "$T/forge" && git merge -q --squash origin/feat >/dev/null && git commit -qm "feat (#1)" --no-verify && git push -q origin main && git push -q origin --delete feat ) >/dev/null 2>&1 || { echo "setup: squash"; exit 2; }
git fetch -q --prune origin || exit 2
echo c > c.txt && git add -A && git commit -qm "feat: follow-up" >/dev/null 2>&1 || exit 2
git merge -q --no-edit origin/main >/dev/null 2>&1 || { echo "setup: merge main"; exit 2; }
p=0; git push origin feat >"$T/push.log" 2>&1 && p=1
script -qec "harness approve gate-change --key $T/human" /dev/null <<<"approve" >"$T/approve2.log" 2>&1
echo "follow-up push of feat after the squash-merge and a merge of origin/main: accepted $p"
grep -E 'given for an earlier change|^ *→' "$T/push.log" | sed 's/^ *//' | cut -c1-260
echo "harness approve gate-change on feat says: $(grep -m1 -iE 'no approval needed|approved by|refus' "$T/approve2.log")"
# What works: a rebase onto main (the control shows the refusal is about the squash, nothing else).
git rebase -q origin/main >/dev/null 2>&1 && git push -q origin feat >/dev/null 2>&1 && echo "after git rebase origin/main: pushed"
[ $p = 1 ] && { echo "ok: pushed"; exit 0; }
grep -qiE 'rebase|squash' "$T/push.log" && { echo "ok: the refusal names the way out"; exit 0; }
echo "DEFECT: the refusal calls the squash-merged commit a copy and recommends an approval that is not possible"; exit 1
