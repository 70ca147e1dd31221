#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# F-0025's host layer takes `apply_patch <<EOF … EOF` as a form "Codex applies itself" and reads the heredoc's
# body literally as the patch (patch_read=True, writes = its headers). With an UNQUOTED tag, the shell expands
# the body before apply_patch reads it: `$(…)`, `${…}` and backslash-newline in a header build a ledger path the
# guard never sees. Claude's Bash (and Codex when it does not intercept) runs the line through bash, with any
# `apply_patch` program on PATH (a Codex install, Patch-22, …). A minimal apply_patch (Add File) stands in for it.
# Exit 1 while such a line is allowed and rewrites .harness/tasks/*/events.jsonl.
source "$D"/common.inc
mkdir -p "$T/bin"; cat > "$T/bin/apply_patch" <<'PY'
#!/usr/bin/env python3
import sys
text = sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()
path, body = None, []
for line in text.splitlines():
    s = line.strip()
    if s.startswith("*** Add File: "): path = s[len("*** Add File: "):]
    elif path and line.startswith("+"): body.append(line[1:])
open(path, "w").write("\n".join(body) + "\n")
PY
chmod +x "$T/bin/apply_patch"; export PATH="$T/bin:$PATH"
control "apply_patch <<'EOF'
*** Begin Patch
*** Add File: $L
+x
*** End Patch
EOF"
ledger_case "apply_patch <<EOF
*** Begin Patch
*** Add File: \$(printf .harness)/tasks/$TID/events.jsonl
+x
*** End Patch
EOF"
ledger_case "apply_patch <<EOF
*** Begin Patch
*** Add File: .har\\
ness/tasks/$TID/events.jsonl
+x
*** End Patch
EOF"
ledger_case "apply_patch <<EOF
*** Begin Patch
*** Add File: \${HOME:+.harness}/tasks/$TID/events.jsonl
+x
*** End Patch
EOF"
exit $fail
