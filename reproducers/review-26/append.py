import json, sys
from pathlib import Path
from harness.core.ledger import encode_event, line_hash
path = Path(sys.argv[1]); etype = sys.argv[2]; data = json.loads(sys.argv[3])
lines = path.read_text("utf-8").splitlines()
last = json.loads(lines[-1])
lines.append(encode_event(last["seq"] + 1, last["ts"], etype, data, line_hash(lines[-1])))
path.write_text("\n".join(lines) + "\n", "utf-8")
