#!/usr/bin/env bash
# Defect: a git note (stamp) carries a secret to the remote that the push guard refused to let through.
#   The post-commit stamp (harness/history/stamp.py stamp_for/_task_base) copies error messages about the
#   committed .harness/ files into the note: a schema message quoting the refused value
#   (harness/store/validate.py describe: redacted without config.yaml's redaction.patterns) and a YAML
#   message quoting a duplicate key (harness/store/yamlio.py _parse: not redacted at all). The note is then
#   redacted by harness/store/secrets_check.py note_text with the built-in rules alone (no detect-secrets
#   plugins, no project patterns), and refs/notes/* pushes are ignored by the push guard
#   (harness/history/hook_checks.py; docs/git.md "refs/notes/* pushes are ignored"). All notes share one ref,
#   so a plain `git push` of a clean branch sends the note of a local, never-pushed commit the guard would
#   refuse (made with --no-verify, or by cherry-pick / revert / rebase, which run no pre-commit stage).
# Correct: no secret reaches the remote: the note is redacted with the same rules the commit check uses
#   (detect-secrets and the commit's redaction.patterns), or the push guard reads the note blobs it sends.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
PROJECT_SECRET=ACME-7F3A9C0B5D2E8146
SLACK_HOOK=https://hooks.slack.com/services/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
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["true"]' \
       'redaction:' "  patterns: ['ACME-[0-9A-F]{16}']" > .harness/config.yaml \
  && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init && git push -q ) >/dev/null 2>&1 || exit 2
git --git-dir "$T/remote.git" rev-parse -q --verify refs/heads/main >/dev/null || exit 2

# A local experiment, never pushed: a hand edit of .harness/ committed without the pre-commit stage.
git switch -q -c wip || exit 2
sed -i "s|^  state: CREATED|  state: [$PROJECT_SECRET]|" .harness/tasks/*/task.yaml || exit 2
printf '%s: 1\n%s: 2\n' "'$SLACK_HOOK'" "'$SLACK_HOOK'" >> .harness/gate.yaml
git commit -q --no-verify -am wip >/dev/null 2>&1 || exit 2

# Back on the clean branch, a plain push (install added refs/notes/harness* to what it sends).
git switch -q main || exit 2
echo a2 >> a.txt && git commit -qam "code change" >/dev/null 2>&1 || exit 2
push_out=$(git push 2>&1); push_rc=$?

leaked=0
notes=$(git --git-dir "$T/remote.git" notes --ref=harness list 2>/dev/null | cut -d' ' -f1)
for n in $notes; do
  text=$(git --git-dir "$T/remote.git" cat-file -p "$n")
  case "$text" in *"$PROJECT_SECRET"*) echo "LEAK: the remote's notes hold a redaction.patterns secret: $(grep -o "[^\"]*$PROJECT_SECRET[^\"]*" <<<"$text" | head -1)"; leaked=1;; esac
  case "$text" in *"$SLACK_HOOK"*) echo "LEAK: the remote's notes hold a Slack webhook URL: $(grep -o "[^\"]*hooks.slack.com[^\"]*" <<<"$text" | head -1)"; leaked=1;; esac
done
# The wip commit itself must still be refused at push (the control: the guard does see it in a commit).
if git push -q origin wip >/dev/null 2>&1; then echo "control failed: the wip commit was accepted"; exit 2; fi
if [ "$leaked" = 1 ]; then
  echo "DEFECT: secrets from a commit the push guard refuses reached the remote in refs/notes/harness"; exit 1
fi
if [ "$push_rc" != 0 ]; then  # a fix may refuse the notes instead of redacting them: only for that reason
  if grep -qi "secret" <<<"$push_out"; then echo "OK: the push was refused for the note's secret"; exit 0; fi
  echo "setup: the clean push was refused for another reason:"; echo "$push_out" | tail -5; exit 2
fi
echo "OK: no secret in the remote's notes"; exit 0
