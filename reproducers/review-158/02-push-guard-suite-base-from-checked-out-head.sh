here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Defect: the push guard picks the published line it judges a pushed approval against by the protected branch that
#   HEAD's gate.yaml names (harness/signatures/published_line.py suite_base, read at git.head(); used by
#   harness/history/hook_checks.py pushed_line -> Published.line_tips(suite_base(git)) and the fallback
#   protected_line). At push time HEAD is whatever the agent has checked out, not what is pushed: `git push origin
#   BRANCH` pushes another ref. The agent checks out (detached) a local commit of its own, never pushed and made with
#   --no-verify, whose gate.yaml says `suite.base: nowhere`; the remote lists no `nowhere`, the clone has none either,
#   so there is "no published line" - and read 156's replay (a gate-change approval main already spent, copied with
#   the loose gate.yaml onto a branch forked before it) is pushed by the pre-push guard, with origin/main and main
#   left exactly in place. A change of suite.base needs a human's approval in a pushed commit; in HEAD it needs none.
# Correct: the push guard takes the protected branch from something the push cannot choose by what it checks out:
#   the pushed commit's (or its parents', or the remote's protected tip's) gate.yaml, or the remote's default branch -
#   and a suite.base naming a branch the remote lacks is a refusal, not "nothing published".
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
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
git commit -qm "replay" --no-verify >/dev/null 2>&1 || exit 2
REPLAY=$(git rev-parse HEAD)
# The agent leaves origin/main and main alone; it checks out (detached) a local commit of its own, never pushed,
# whose gate.yaml names a protected branch the remote does not have, and pushes the replay branch by name.
printf "  suite:\n    paths: [\"tests/**\"]\n    base: nowhere\n" >> .harness/gate.yaml && git add -A && git commit -qm side --no-verify >/dev/null 2>&1 || exit 2
git checkout -q --detach HEAD && git branch -q -f agent "$REPLAY" || exit 2
p=0; git push -q origin agent >"$T/push.log" 2>&1 && p=1
echo "HEAD's suite.base: nowhere; origin/main and main in place; pre-push guard accepted the replay of agent: $p"
[ $p = 1 ] && { echo "DEFECT: the published line is chosen by HEAD's gate.yaml, not the pushed commits'"; exit 1; }
echo "ok: refused"; exit 0
