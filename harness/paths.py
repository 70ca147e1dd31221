"""Where the harness keeps its files, relative to the repository root: the one module that spells `.harness/`.

Plain strings (git names files by relative path with `/`, whatever the platform); `harness.store.layout`
turns them into the absolute paths of one checkout.
"""

HARNESS = ".harness"
CONFIG = f"{HARNESS}/config.yaml"               # evidence commands, limits, the notes ref
GATE = f"{HARNESS}/gate.yaml"                   # the gate policy
APPROVALS = f"{HARNESS}/approvals.jsonl"        # signed human approvals
ALLOWED_SIGNERS = f"{HARNESS}/allowed_signers"  # whose signatures count, when CI names no trust root
TASKS = f"{HARNESS}/tasks"
LOCAL = f"{HARNESS}/local"                      # untracked, per clone: lock, caches, current task
CONTRACT_DRAFT = f"{LOCAL}/contract.yaml"
LOCK = f"{LOCAL}/lock"                          # one writer at a time (readers share it)
ASIDE = f"{LOCAL}/aside"                        # what a set-aside moved out of the source (core.finding_binding)
ASIDE_LIST = f"{LOCAL}/aside.list"              # ... and the list that brings it back
FRAMEWORK_CONFIG = ".pre-commit-config.yaml"    # the pre-commit framework's, which runs the harness's hooks
# The files pytest reads its configuration from, in any folder it starts from (pytest 9 reads pytest.toml first).
# One list: the suite's protected paths, the base's start-up options and the agent guard's readers all take it.
PYTEST_CONFIGS = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml")


def task_folder(task_id: str) -> str:
    return f"{TASKS}/{task_id}"


def inside(rel: str) -> bool:
    """Whether a repository-relative path is `.harness/` or under it."""
    return rel == HARNESS or rel.startswith(HARNESS + "/")
