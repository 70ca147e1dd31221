#!/usr/bin/env bash
# Found in this repository: a commit's post-commit stamp said "stamp skipped: the stamp cache .git/harness/
# stamp-cache.json: larger than the 64 MiB limit for a cache file (refused)". The cache keeps up to 4,096 entries
# besides the last stamp's, whatever their size; a task whose gate facts carry a suite's case lists writes ~1.2 MB
# per commit that touches it, so fifty-odd commits pass the reader's cap, and from then on every stamp is skipped
# until someone deletes the file. This drives forty stamps that each keep one 2 MiB answer.
# Exit 1 while the cache grows past its cap or a stamp is refused for its size; 0 when fixed; 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
python - <<'PY'
import sys, tempfile
from pathlib import Path
try:
    from harness.core.file_caps import CAPS
    from harness.errors import HarnessError
    from harness.history.stamp_cache import StampCache
except Exception as exc:
    print("setup:", exc); sys.exit(2)
path = Path(tempfile.mkdtemp()) / "stamp-cache.json"
big = "x" * (2 * 1024 * 1024)
for i in range(40):
    try:
        cache = StampCache(path)
    except HarnessError as exc:
        print(f"stamp {i}: refused: {exc.message[:120]}"); sys.exit(1)
    cache.put(f"facts:{i}", big)
    cache.save()
size = path.stat().st_size
print(f"after 40 stamps the cache is {size:,} bytes (the reader's cap: {CAPS['cache']:,})")
sys.exit(1 if size > CAPS["cache"] else 0)
PY
