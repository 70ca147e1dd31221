#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# An approval signed in repository X is replayed in repository Y after Y merges one commit of X's
# history that carries no .harness/ (allowed: the one-adoption rule only looks at sides that carry
# .harness/). The repository id an approval is bound to is min(root commits of the parent's history)
# (harness/gitio/revisions.py repository_id), so merging X's root (when its sha sorts lower) turns Y's
# id into X's, and binding_problem then accepts X's `repository` field. With the same approver trusted
# in both (an org-wide harness.allowedSigners on the server, or the same person's key in both files),
# a gate-change signed for X loosens Y's identical gate: accepted by `git commit`, the server's
# pre-receive hook and `harness audit --allowed-signers`. The control (same replay, no merge) is refused.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
ssh-keygen -q -t ed25519 -N '' -f "$T/key" -C ap >/dev/null || exit 2
SIGNERS="a@b $(cut -d' ' -f1,2 "$T/key.pub")"; echo "$SIGNERS" > "$T/org_signers"
# Repository X: a root without .harness/, adoption, then the approver signs a loosening there.
mkdir "$T/x"; cd "$T/x" || exit 2; git init -q -b main
echo x > x.txt; git add -A; GIT_COMMITTER_DATE="2020-01-01T00:00:00" git commit -qm "x root" || exit 2
RX=$(git rev-parse HEAD)
harness init >/dev/null && echo "$SIGNERS" > .harness/allowed_signers && git add -A && git commit -qm adopt || exit 2
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
script -qec "harness approve gate-change --key $T/key" /dev/null <<<"approve" > "$T/approve.log" 2>&1
grep -q '"kind": "gate-change"' .harness/approvals.jsonl 2>/dev/null || { cat "$T/approve.log"; exit 2; }
cp .harness/gate.yaml "$T/gate.loose"; tail -1 .harness/approvals.jsonl > "$T/approval.line"
# Repository Y (unrelated history, root sha sorting after X's), same approver, server with org-wide signers.
git init -q --bare -b main "$T/srv.git"; ( cd "$T/srv.git" && harness install --server >/dev/null \
  && git config harness.allowedSigners "$T/org_signers" ) || exit 2
mkdir "$T/y"; cd "$T/y" || exit 2; git init -q -b main; echo y > y.txt; git add -A
for i in $(seq 10 59); do
  GIT_COMMITTER_DATE="2021-01-01T00:00:$i" git commit -qm "y root"; RY=$(git rev-parse HEAD)
  [[ "$RY" > "$RX" ]] && break; git update-ref -d HEAD
done
[[ "$RY" > "$RX" ]] || exit 2
( harness init && echo "$SIGNERS" > .harness/allowed_signers && harness install && git add -A \
  && git commit -qm adopt && git remote add origin "$T/srv.git" && git push -q origin main ) >/dev/null 2>&1 || exit 2
replay() { cp "$T/gate.loose" .harness/gate.yaml; cat "$T/approval.line" >> .harness/approvals.jsonl; git add -A; }
# Control: the replay on Y's own history is refused (given in another repository).
replay; if git commit -qm "replay (control)" >/dev/null 2>&1; then echo "setup: control accepted"; exit 2; fi
git reset -q --hard HEAD
# The detour: merge X's root commit (no .harness/), then replay.
git fetch -q "$T/x" "$RX" && git merge -q --allow-unrelated-histories -m "merge x's root" "$RX" >/dev/null 2>&1 || exit 2
replay
c=0; s=0; a=0
git commit -qm "loosen the gate with X's approval" >/dev/null 2>&1 && c=1
[ $c = 1 ] && git push -q origin main >/dev/null 2>&1 && s=1
if [ $c = 1 ]; then
  git clone -q "$T/srv.git" "$T/ci" 2>/dev/null; [ $s = 1 ] || { cd "$T/ci" && git fetch -q "$T/y" main && git checkout -q FETCH_HEAD; }
  ( cd "$T/ci" && harness audit --allowed-signers "$T/org_signers" --from "$(git -C "$T/y" rev-parse HEAD~2)" --to HEAD ) >/dev/null 2>&1 && a=1
fi
echo "repository ids: Y=$RY X=$RX; after merge: $(git -C "$T/y" rev-list --max-parents=0 HEAD | sort | head -1)"
echo "git commit accepted: $c   server push accepted: $s   harness audit accepted: $a"
grep -q "unit_test: optional" <(git -C "$T/srv.git" show main:.harness/gate.yaml 2>/dev/null) && echo "server main now has: unit_test: optional"
[ $c = 1 ] || [ $s = 1 ] || [ $a = 1 ] && exit 1
exit 0
