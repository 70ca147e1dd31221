#!/usr/bin/env bash
# A command line fed to a shell on stdin (pipe, here-string, piped here-document) is not judged.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
rc=0
cmds=("echo 'git commit -n -m x' | bash" "bash <<< 'git commit -n -m x'" $'cat <<\'EOF\' | sh\ngit commit -n -m x\nEOF')
for c in "${cmds[@]}"; do
  v=$(verdict "$c"); echo "$v: $(printf '%s' "$c" | tr '\n' ' ')"; [ "$v" = allow ] && rc=1
done
echo "control: $(verdict $'bash <<\'EOF\'\ngit commit -n -m x\nEOF'): bash <<'EOF' ... EOF"
[ $rc = 1 ] && echo "DEFECT: git commit -n through a shell's stdin is allowed"
exit $rc
