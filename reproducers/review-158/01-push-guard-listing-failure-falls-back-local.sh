#!/usr/bin/env bash
# Defect: the push guard's fix for read 156's F-0551 (harness/history/hook_checks.py pushed_line ->
#   harness/history/pushed_bases.py Published.line_tips) judges a pushed approval against the remote's protected
#   branch as `git ls-remote` lists it - but when the listing is refused or fails, line_tips returns [] and pushed_line
#   silently falls back to protected_line(git): the clone's origin/main and main, the very refs the agent deletes.
#   The agent makes the listing fail with one line of its own git config that changes nothing about the push: any
#   setting of a "remote" named like the push URL (`git config remote.<url>.x y`), or an identity
#   `url.<url>.insteadOf <url>` rule. Published._list answers both with a refusal (a Problem) - which the suite-base
#   check reports only when the push brings a claim, and the approval check throws away. So read 156's exact replay
#   (a spent gate-change approval copied onto a branch forked before it, origin/main and main deleted) is pushed
#   again by the pre-push guard. The same holds for a remote that is merely unreachable for the listing.
# Correct: where the remote's listing cannot be read (refused or failed), the push guard does not quietly fall back
#   to the clone's refs for a push that claims an approval: it refuses, with the listing's reason (as the base check
#   does: "a remote it cannot list is a refusal with the reason"), or at least keeps the local fallback only where the
#   remote truly lists no protected branch.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME="$T/home"; mkdir -p "$HOME"
export GIT_AUTHOR_NAME=h GIT_AUTHOR_EMAIL=h@x GIT_COMMITTER_NAME=h GIT_COMMITTER_EMAIL=h@x
ssh-keygen -q -t ed25519 -N '' -f "$T/human" -C human >/dev/null || exit 2
git init -q --bare -b main "$T/srv.git" || exit 2   # a host without the harness's pre-receive hook
R="$T/repo"; mkdir "$R" && cd "$R" || exit 2
( git init -q -b main && echo a > a.txt && harness init && echo "h@x $(cut -d' ' -f1,2 "$T/human.pub")" \
    > .harness/allowed_signers && harness install && git add -A && git commit -qm adopt \
  && git remote add origin "$T/srv.git" && git push -q origin main ) >/dev/null 2>&1 || exit 2
ADOPT=$(git rev-parse HEAD)
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
script -qec "harness approve gate-change --key $T/human" /dev/null <<<"approve" >"$T/approve.log" 2>&1
grep -q "approved by" "$T/approve.log" || { cat "$T/approve.log"; exit 2; }
git add -A && git commit -qm "A: unit_test optional (approved)" >/dev/null 2>&1 || exit 2
cp .harness/gate.yaml "$T/loose"; tail -1 .harness/approvals.jsonl > "$T/line"
sed -i 's/unit_test: optional/unit_test: required/' .harness/gate.yaml
git add -A && git commit -qm "B: unit_test required again" >/dev/null 2>&1 && git push -q origin main >/dev/null 2>&1 || exit 2
# Control: with the clone's refs as git left them, the replay on a branch forked before A is refused.
git checkout -q -b agent "$ADOPT"
cp "$T/loose" .harness/gate.yaml; cat "$T/line" >> .harness/approvals.jsonl; git add -A
if git commit -qm "replay (control)" >/dev/null 2>&1; then echo "setup: the replay was accepted with origin/main in place"; exit 2; fi
git commit -qm "replay" --no-verify >/dev/null 2>&1 || exit 2
if git push -q origin agent >/dev/null 2>&1; then echo "setup: the push guard let the replay through with origin/main in place"; exit 2; fi
git reset -q --soft HEAD~1
# The agent: the clone's refs to the published line taken away, the replay committed (--no-verify) ...
git update-ref -d refs/remotes/origin/main && git branch -q -D main || exit 2
git commit -qm "replay" --no-verify >/dev/null 2>&1 || exit 2
# Control: with the listing intact, the fixed push guard refuses it.
if git push -q origin agent >"$T/push0.log" 2>&1; then echo "setup: the fixed push guard accepted the replay"; exit 2; fi
bad=0
# ... then one harmless config line that makes the listing fail, and the same push.
for how in setting insteadof; do
  case $how in
    setting) git config "remote.$T/srv.git.note" "anything" ;;
    insteadof) git config "url.$T/srv.git.insteadOf" "$T/srv.git" ;;
  esac
  if git push -q origin agent >"$T/push-$how.log" 2>&1; then
    echo "$how: pre-push guard accepted the spent approval; remote's agent gate: $(git --git-dir "$T/srv.git" show agent:.harness/gate.yaml | grep 'unit_test:' | xargs)"
    bad=1
    git push -q --no-verify -f origin "$ADOPT:refs/heads/agent" >/dev/null 2>&1 || exit 2  # put the remote back
  else
    echo "$how: refused: $(grep -m1 -iE 'refus|spent|earlier|list' "$T/push-$how.log")"
  fi
  git config --unset "remote.$T/srv.git.note" 2>/dev/null; git config --unset "url.$T/srv.git.insteadOf" 2>/dev/null
done
[ $bad = 1 ] && { echo "DEFECT: a listing the agent makes fail sends the push guard back to the local refs it deleted"; exit 1; }
echo "ok: the spent approval was refused"; exit 0
