#!/usr/bin/env bash
# Defect: harness/install/existing_hooks.py _OWN_NAME (`$0`, argv[0], __file__, __filename, __dirname, BASH_SOURCE,
#   $PROGRAM_NAME) misses the usual way a Node hook reads its own path, `process.argv[1]` (argv[0] is node itself;
#   likewise `import.meta.url`/`import.meta.filename`). Such a hook is still renamed to <stage>.pre-harness and chained
#   ("kept your pre-commit hook: it runs first"), and then looks for its work under the new name: here its per-hook
#   check (hook-scripts/<its name>) is no longer found and silently skipped, so a commit the user's own check refused
#   before install goes in after it. CHANGELOG/docs promise "a hook that mentions $0, argv[0] or its own path is never
#   renamed: install refuses, changes nothing, and names the line to add".
# Correct: install refuses with nothing changed (or otherwise keeps the hook under its own name); the user's check
#   still refuses the commit.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
command -v node >/dev/null || { echo "setup: node not installed"; exit 2; }
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && echo a > a.txt && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
# The team's Node dispatcher: runs hook-scripts/<the hook's own name> when there is one.
cat > .git/hooks/pre-commit <<'EOF'
#!/usr/bin/env node
const fs = require('fs'), path = require('path'), { spawnSync } = require('child_process');
const name = path.basename(process.argv[1]);
const script = path.join('hook-scripts', name);
if (fs.existsSync(script)) process.exit(spawnSync('sh', [script], { stdio: 'inherit' }).status);
EOF
chmod +x .git/hooks/pre-commit
mkdir hook-scripts; printf '#!/bin/sh\nif git diff --cached | grep -q \"^+DO-NOT-COMMIT\$\"; then echo "team check: DO-NOT-COMMIT staged" >&2; exit 1; fi\n' > hook-scripts/pre-commit
git add hook-scripts && git commit -qm "team check" >/dev/null 2>&1 || exit 2
echo 'DO-NOT-COMMIT' > b.txt; git add b.txt
git commit -qm "before install" >/dev/null 2>&1 && { echo "setup: the team check did not refuse"; exit 2; }
harness install >"$T/install.log" 2>&1; irc=$?
if [ $irc -ne 0 ]; then
  grep -q 'harness hook run pre-commit' "$T/install.log" && [ ! -e .git/hooks/pre-commit.pre-harness ] \
    && { echo "OK: install refused to rename the hook"; exit 0; }
  cat "$T/install.log"; exit 2
fi
echo "install said: $(grep -m1 'pre-commit' "$T/install.log")"
if git commit -qm "after install" >"$T/commit.log" 2>&1; then
  echo "DEFECT: renamed to pre-commit.pre-harness, the hook no longer finds hook-scripts/pre-commit: the commit its check refused went in"
  exit 1
fi
echo "OK: the team check still refuses"; exit 0
