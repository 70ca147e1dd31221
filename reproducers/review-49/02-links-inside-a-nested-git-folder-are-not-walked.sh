#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# A folder named .git inside a copied folder is not walked for links: w/v/F/.git/z -> ../../../.harness/tasks leads
# to w/.harness/tasks (nothing); copied to q/F it leads to the record.
mkdir -p q || exit 2
allowed 'mkdir -p w/v/F/.git'; mkdir -p w/v/F/.git || exit 2
allowed 'ln -s ../../../.harness/tasks w/v/F/.git/z'; ln -s ../../../.harness/tasks w/v/F/.git/z || exit 2
check deny 'cp -r w/v/F q/F'
check deny 'cp -a w/v/F q/'
check deny 'mv w/v/F q/F'
exit $fail
