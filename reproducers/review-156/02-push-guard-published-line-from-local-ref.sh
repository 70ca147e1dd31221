#!/usr/bin/env bash
# Defect: the push guard (and the commit hook, `harness gate`) take the published line an approval was already
#   spent on from the clone's own refs - `refs/remotes/origin/main`, else the local `main`
#   (harness/signatures/published_line.py protected_line -> History.protected_refs) - which the agent moves or
#   deletes with plain git (`git update-ref -d refs/remotes/origin/main`, `git branch -D main`). With both gone the
#   clone "has no published line", and a gate-change approval the human gave on main and main withdrew since,
#   copied onto a branch forked before it (read 154's F-0543), passes the commit hook and the pre-push guard of a
#   push to a remote without the server hook. The suite base was hardened against exactly this (read 127's
#   F-0454: the push guard asks `git ls-remote` for the protected branch's tip, "those refs are local"); the
#   published line of approvals was not.
# Correct: the push guard judges a pushed approval against the remote's protected branch as the remote lists it
#   (as it does for the suite base), or refuses where it cannot tell; at least the local refs the agent can move
#   are not the only evidence. (The server's pre-receive hook and `harness audit --base` are not affected.)
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
# The agent: the clone's refs to the published line taken away, then the same replay.
git update-ref -d refs/remotes/origin/main && git branch -q -D main || exit 2
c=0; p=0
git commit -qm "unit_test optional (the spent approval again)" >/dev/null 2>&1 && c=1
if [ $c = 0 ]; then git commit -qm "replay" --no-verify >/dev/null 2>&1 || exit 2; fi
git push -q origin agent >"$T/push.log" 2>&1 && p=1
echo "after deleting origin/main and main locally: git commit accepted: $c   pre-push guard accepted: $p"
[ $p = 1 ] && echo "the remote's agent branch gate: $(git --git-dir "$T/srv.git" show agent:.harness/gate.yaml | grep 'unit_test:' | xargs)"
# The commit hook judges from what the clone knows (docs/approvals.md); its result is reported, the push guard decides
# (the finding's expected behaviour: "the push guard judges ... as the remote lists it"; amended when F-0551 was fixed).
[ $p = 1 ] && { echo "DEFECT: the published line is read from local refs the agent deleted"; exit 1; }
echo "ok: the spent approval was refused"; exit 0
