#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# Codex puts real `apply_patch` / `applypatch` executables on its shell's PATH (codex-rs/arg0: symlinks to
# the codex binary, prepended to PATH; the standalone apply_patch takes the patch as argv[1], or on stdin
# when there is none). So a shell command that is not the literal heredoc envelope still applies a patch:
#   apply_patch < /tmp/p.patch        (the patch in a file the agent wrote outside the repository)
#   apply_patch "$(cat /tmp/p.patch)"
#   apply_patch $'*** Begin Patch\n*** Update File: .harness/…\n…'   (ANSI-C quoting: one line)
# The fix reads headers only from lines of the command text that start with `*** `, so none of these is
# seen; the shell judge treats `apply_patch` as an unknown command. Control: the heredoc form is denied.
# Exit 1 while any of them is allowed, 0 when all are denied, 2 on setup failure.
source "$D"/common.inc
P=$T/p.patch; printf '*** Begin Patch\n*** Update File: %s\n@@\n-x\n+y\n*** End Patch\n' "$L" > "$P"
control "apply_patch <<'EOF'
$(cat "$P")
EOF"
for c in "apply_patch < $P" "apply_patch \"\$(cat $P)\"" "cat $P | applypatch" \
         "apply_patch \$'*** Begin Patch\\n*** Update File: $L\\n@@\\n-x\\n+y\\n*** End Patch\\n'"; do
  a=$(hk "$c"); echo "$a : $c"; [ "$a" = allow ] && fail=1
done
exit $fail
