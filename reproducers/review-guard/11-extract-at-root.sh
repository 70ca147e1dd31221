#!/usr/bin/env bash
# Extracting any archive in the repository root (tar xzf fixtures.tgz, unzip data.zip) is denied even when the archive holds no .harness/ member.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
mkdir -p fx && echo hi > fx/a.txt && tar -czf fixtures.tgz fx && rm -rf fx
python3 -c 'import zipfile; z=zipfile.ZipFile("data.zip","w"); z.writestr("data/b.txt","x"); z.close()'
rc=0
for c in "tar xzf fixtures.tgz" "tar -xzf fixtures.tgz" "unzip data.zip"; do
  v=$(verdict "$c"); echo "$v: $c"; [ "$v" = deny ] && rc=1
done
tar -tzf fixtures.tgz | sed 's/^/  member: /'
[ $rc = 1 ] && echo "DEFECT: an everyday extraction at the root is denied (the archive's members are readable with tar -t/unzip -l)"
exit $rc
