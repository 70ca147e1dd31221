#!/usr/bin/env bash
# Defect: an approval counts once only along the line of history that holds it. A gate-change approval the human
#   gave on main (gate.yaml G0 -> G1), later withdrawn by tightening main back to G0, is refused if copied again on
#   main (spent: "already in approvals.jsonl of HEAD"), yet the agent copies the same signed line onto a branch forked
#   before the approval and loosens that branch's gate.yaml to G1: the commit hook, the server's pre-receive hook and
#   `harness audit` all accept it. harness/signatures/trust.py approved() takes "spent" from the trusted (parent)
#   side's approvals.jsonl only, and binding_problem() checks repository and from_digest, both of which the older
#   branch shares. Tasks judged there under the loosened gate then reach DONE and merge into main (the merge keeps
#   main's gate.yaml, and a task folder equal to a parent's is not judged again).
#   Variant 2, signers-change: the human lists a second key K, then removes it again (revoked: say it leaked, to the
#   agent). The agent re-lists K on a branch forked before, with the human's spent signers-change line, then signs a
#   gate-change with K itself: both commits are accepted by the commit hook and the server (which trusts the
#   repository's own allowed_signers, as it does by default).
# Correct: a signed approval the repository's history already spent (its line added by another commit, here on main
#   which the server and CI hold) does not count again on another branch: refused as "given for an earlier change",
#   as on main; at least `harness audit`/the server, which see main, refuse it.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME="$T/home"; mkdir -p "$HOME"
export GIT_AUTHOR_NAME=h GIT_AUTHOR_EMAIL=h@x GIT_COMMITTER_NAME=h GIT_COMMITTER_EMAIL=h@x
ssh-keygen -q -t ed25519 -N '' -f "$T/human" -C human >/dev/null || exit 2
git init -q --bare -b main "$T/srv.git" && ( cd "$T/srv.git" && harness install --server >/dev/null 2>&1 ) || exit 2
R="$T/repo"; mkdir "$R" && cd "$R" || exit 2
( git init -q -b main && echo a > a.txt && harness init && echo "h@x $(cut -d' ' -f1,2 "$T/human.pub")" \
    > .harness/allowed_signers && harness install && git add -A && git commit -qm adopt \
  && git remote add origin "$T/srv.git" && git push -q origin main ) >/dev/null 2>&1 || exit 2
ADOPT=$(git rev-parse HEAD)
# The human approves a loosening on main (A); later main is tightened back (B): the approval is spent.
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
script -qec "harness approve gate-change --key $T/human" /dev/null <<<"approve" >"$T/approve.log" 2>&1
grep -q "approved by" "$T/approve.log" || { cat "$T/approve.log"; exit 2; }
git add -A && git commit -qm "A: unit_test optional (approved)" >/dev/null 2>&1 || exit 2
cp .harness/gate.yaml "$T/loose"; tail -1 .harness/approvals.jsonl > "$T/line"
sed -i 's/unit_test: optional/unit_test: required/' .harness/gate.yaml
git add -A && git commit -qm "B: unit_test required again" >/dev/null 2>&1 && git push -q origin main >/dev/null 2>&1 || exit 2
# Control: the same replay on main is refused (spent).
cp "$T/loose" .harness/gate.yaml; git add -A
if git commit -qm "replay on main" >/dev/null 2>&1; then echo "setup: the replay on main was accepted"; exit 2; fi
git reset -q --hard
# The agent: a branch from before A, the spent line copied in, the gate loosened again.
git checkout -q -b agent "$ADOPT"
cp "$T/loose" .harness/gate.yaml; cat "$T/line" >> .harness/approvals.jsonl; git add -A
c=0; s=0; a=0
git commit -qm "unit_test optional (the spent approval again)" >/dev/null 2>&1 && c=1
[ $c = 1 ] && git push -q origin agent >/dev/null 2>&1 && s=1
if [ $c = 0 ]; then git commit -qm "replay" --no-verify >/dev/null 2>&1 || exit 2; fi
git clone -q "$T/srv.git" "$T/ci" 2>/dev/null || exit 2
echo "h@x $(cut -d' ' -f1,2 "$T/human.pub")" > "$T/ci_signers"
( cd "$T/ci" && git fetch -q "$R" agent && harness audit --allowed-signers "$T/ci_signers" \
    --from origin/main --to FETCH_HEAD ) >"$T/audit.log" 2>&1 && a=1
# Variant 2: a revoked key re-listed on an older branch with the spent line, then used.
R2="$T/repo2"; mkdir "$R2" && cd "$R2" || exit 2
ssh-keygen -q -t ed25519 -N '' -f "$T/k" -C k >/dev/null || exit 2
git init -q --bare -b main "$T/srv2.git" && ( cd "$T/srv2.git" && harness install --server >/dev/null 2>&1 ) || exit 2
( git init -q -b main && echo a > a.txt && harness init && echo "h@x $(cut -d' ' -f1,2 "$T/human.pub")" \
    > .harness/allowed_signers && harness install && git add -A && git commit -qm adopt \
  && git remote add origin "$T/srv2.git" && git push -q origin main ) >/dev/null 2>&1 || exit 2
ADOPT2=$(git rev-parse HEAD); cp .harness/allowed_signers "$T/orig"
sign() { script -qec "harness approve $1 --key $2" /dev/null <<<"approve" >"$T/approve.log" 2>&1
         grep -q "approved by" "$T/approve.log" || { cat "$T/approve.log"; exit 2; }; }
echo "h@x $(cut -d' ' -f1,2 "$T/k.pub")" >> .harness/allowed_signers; sign signers-change "$T/human"
git add -A && git commit -qm "list K (approved)" >/dev/null 2>&1 || exit 2
cp .harness/allowed_signers "$T/withK"; tail -1 .harness/approvals.jsonl > "$T/lineK"
cp "$T/orig" .harness/allowed_signers; sign signers-change "$T/human"
git add -A && git commit -qm "K revoked (approved)" >/dev/null 2>&1 && git push -q origin main >/dev/null 2>&1 || exit 2
git checkout -q -b agent "$ADOPT2"
cp "$T/withK" .harness/allowed_signers; cat "$T/lineK" >> .harness/approvals.jsonl; git add -A
c2=0; s2=0
if git commit -qm "K listed again (the spent line)" >/dev/null 2>&1; then
  sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml; sign gate-change "$T/k"; git add -A
  git commit -qm "unit_test optional, approved with the revoked K" >/dev/null 2>&1 && c2=1
  [ $c2 = 1 ] && git push -q origin agent >/dev/null 2>&1 && s2=1
fi
cd "$R" || exit 2
echo "variant 2 (revoked key re-listed, then signing): git commit accepted: $c2   server pre-receive accepted: $s2"
echo "the agent branch's gate: $(git show agent:.harness/gate.yaml | grep 'unit_test:' | xargs)"
echo "git commit accepted: $c   server pre-receive accepted: $s   harness audit (CI's signers) accepted: $a"
[ $c = 1 ] || [ $s = 1 ] || [ $a = 1 ] || [ $c2 = 1 ] || [ $s2 = 1 ] && { echo "DEFECT: an approval already spent on main counts again on another branch"; exit 1; }
echo "ok: the spent approval was refused"; exit 0
