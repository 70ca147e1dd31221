"""Whose signature makes an approval count: the allowed-signers trust root.

Outside the repository when one is named — `harness audit --allowed-signers PATH` (CI's
own copy, which no commit can change), else git config `harness.allowedSigners` or
`gpg.ssh.allowedSignersFile` — and otherwise `.harness/allowed_signers` as the *parent*
commit has it: a change never vouches for itself, so a key added in a commit cannot sign
that commit's approvals, and changing the file needs an approval by a key already listed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from harness import paths
from harness.core import approvals as rules
from harness.core.value_class import dataclass
from harness.errors import HarnessError

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.gitio.git import Git
    from harness.signatures.published_line import LineTip, SpentOnLine
    from harness.store.source import Source



@dataclass(frozen=True)
class Root:
    content: bytes
    label: str


def _read(path: Path, label: str) -> Root:
    from harness.store import bounded

    try:
        full = path.expanduser()
    except RuntimeError:  # `~user/...` for a user this machine does not know
        raise HarnessError(f"cannot read the allowed-signers file {path}: no home folder for its ~",
                           hint="name the file by a full path") from None
    raw = bounded.read(full, "input", f"allowed-signers file {path}", follow=True)
    if raw is None:
        raise HarnessError(f"cannot read the allowed-signers file {path}: No such file or directory",
                           hint="name an allowed-signers file (git's format: `EMAIL KEYTYPE KEY` per line)")
    return Root(raw, label)


def named_file(path: str | os.PathLike) -> Root:
    """The signers listed in ``path``, named on the command line (`harness audit --allowed-signers`)."""
    return _read(Path(path), f"the allowed signers in {path}")


def configured(git: Git) -> Root | None:
    """The signers the repository's git config names (`harness.allowedSigners`, else
    `gpg.ssh.allowedSignersFile`), or None."""
    for key in ("harness.allowedSigners", "gpg.ssh.allowedSignersFile"):
        value = git.config_get(key)
        if value:
            try:
                path = Path(value).expanduser()
            except RuntimeError:  # `~user/...` for a user this machine does not know (F-0096)
                raise HarnessError(f"cannot read the allowed-signers file {value} (git config {key}): no home "
                                   "folder for its ~", hint=f"name the file by a full path: git config {key} PATH") from None
            return _read(path if path.is_absolute() else git.root / path, f"{value} (git config {key})")
    return None


class Signers:
    """One command's trust root beyond the repository's own `.harness/allowed_signers`, built at its
    edge and passed down to every approval check: the file named on its command line, else the one
    the config of the repository ``repository()`` opens names (both read when an approval is first
    checked: most commands check none), else none — each trusted source's (the parent commits', or
    HEAD's) own file then.

    And where approvals were already spent beyond a change's parents: the published line, ``line()``'s tips (the
    server's protected refs, an audit's base; by default the protected branch as the repository's clone knows it),
    read only when a check meets an approval that line holds (read 154's F-0543). :meth:`judging` names the change
    judged (a commit; for the index, its parents), else HEAD's (and a merge's heads) is."""

    def __init__(self, repository: Callable[[], Git] | None = None, named: Root | None = None,
                 line: Callable[[], Sequence[LineTip]] | None = None) -> None:
        self.repository = repository
        self.named = named
        self.line = line
        self.judged: Sequence[str] | None = None
        self._external: list[Root | None] = []  # shared by every view (judging, on_line): read once per command
        self._asked = [0]  # how many checks asked for the root: what was computed without it does not depend on it
        self._tips: list[Sequence[LineTip]] = []
        # what was read of the published line, made at its first use and shared by every view: a command that meets
        # no approval (an evidence run reading config.yaml's) loads nothing of it
        self._spent: list[SpentOnLine] = []

    @property
    def asked(self) -> int:
        return self._asked[0]

    def external(self) -> Root | None:
        self._asked[0] += 1
        return self.settle()

    def settle(self) -> Root | None:
        """Read the root now (once): before anything a check judges can run, as an audit's re-runs do, which
        could otherwise rewrite the config it is read from (read 68's F-0230)."""
        if not self._external:
            found = self.named if self.named is not None or self.repository is None else configured(self.repository())
            self._external.append(found)
        return self._external[0]

    def judging(self, commits: Sequence[str]) -> Signers:
        """This trust root, for a change whose history is ``commits``' (a commit itself; the index, its parents)."""
        view = self._view()
        view.judged = list(commits)
        return view

    def on_line(self, line: Callable[[], Sequence[LineTip]]) -> Signers:
        """This trust root, with ``line()``'s tips as the published line (an audit's base, once its range is known)."""
        view = self._view()
        view.line, view._tips = line, []
        return view

    def _view(self) -> Signers:
        """A copy sharing what was read (the root, the published line's approvals) and the count of asks."""
        view = Signers.__new__(Signers)
        view.__dict__.update(self.__dict__)
        return view

    def spent_on_line(self, payload: bytes) -> str | None:
        """Where the published line already holds the approval signed as ``payload`` and the judged change's history
        does not hold it from there: that tip, named; None otherwise (and wherever no repository is known)."""
        if self.repository is None:
            return None
        git = self.repository()
        from harness.signatures.published_line import SpentOnLine, protected_line

        if not self._tips:
            self._tips.append(self.line() if self.line is not None else protected_line(git))
        if not self._tips[0]:
            return None
        if not self._spent:
            self._spent.append(SpentOnLine())
        return self._spent[0].where(git, payload, self._tips[0], self._judged_commits(git))

    def _judged_commits(self, git: Git) -> list[str]:
        named = self.judged if self.judged is not None else [git.head() or "", *git.merge_heads()]
        out = []
        for rev in named:
            try:
                out.append(git.resolve(rev))
            except HarnessError:
                continue  # an unborn branch: no history holds anything
        return out



def roots(trusted: Sequence[Source], signers: Signers) -> list[Root]:
    """The signers an approval may be checked against: the external root, else each trusted
    source's (the parent commits', or HEAD's) `.harness/allowed_signers`."""
    external = signers.external()
    if external is not None:
        return [external]
    out = []
    for src in trusted:
        raw = src.read(paths.ALLOWED_SIGNERS)
        if raw is not None:
            out.append(Root(raw, f"{paths.ALLOWED_SIGNERS} in {getattr(src, 'label', 'HEAD')}"))
    return out


def approved_cases(approvals_raw: bytes | None, repository: str, base: str, trusted: Sequence[Source],
                   signers: Signers) -> set[str]:
    """The case ids signed `suite-change` approvals let go for this repository and base: each record's
    listed cases, when its digest binds exactly them here and its signature verifies. (Not "spent"
    when committed: the approval holds for the task's base until the base moves.)"""
    import hashlib

    from harness.core.suite import approval_subject

    out: set[str] = set()
    available = roots(trusted, signers)
    for record in rules.records(approvals_raw):
        cases = record.get("changes")
        if record.get("kind") != "suite-change" or not isinstance(cases, list) \
                or not all(isinstance(c, str) for c in cases):
            continue
        want = hashlib.sha256(approval_subject(repository, base, cases)).hexdigest()
        if record.get("digest") == want and signature_problem(record, available) is None:
            out.update(cases)
    return out


def approved(approvals_raw: bytes | None, kind: str, digest: str, trusted: Sequence[Source],
             signers: Signers, signed_by: Sequence[Source] | None = None) -> tuple[bool, str | None]:
    """(True, None) when a record approving ``digest`` for ``kind`` carries a signature that
    verifies against the trust root and, when bound, was given in this repository against the file
    as ``trusted`` (the parent) has it; else (False, why a record that claims it does not count).
    ``signed_by``: whose allowed_signers are the root, when not ``trusted``'s (the gate walking a task's
    steps trusts its base's signers for each: a later commit's list is the change's own)."""
    claims = rules.candidates(approvals_raw, kind, digest)
    if not claims:
        malformed = rules.malformed_claims(approvals_raw, kind, digest)
        if malformed:
            return False, (f"the approval in {paths.APPROVALS} ({'; '.join(malformed[:3])}) is not one the CLI writes: "
                           "an unsigned or badly signed approval counts as none")
        return False, None
    available = roots(trusted if signed_by is None else signed_by, signers)
    # An approval the trusted (parent) side already holds was given for a change made before:
    # restoring that exact file later (after someone tightened it again) needs a new one. Known by
    # what was signed, not by the signature's text (which could be re-wrapped and still verify);
    # approvals.jsonl being append-only (validate.py) keeps a spent one from leaving and coming back.
    spent = {rules.payload(r) for src in trusted for r in rules.records(src.read(paths.APPROVALS))}
    reasons, unsigned = [], False
    for record in claims:
        why = _spent(record, spent, trusted, signers)
        if why is not None:
            reasons.append(why)
            continue
        why = signature_problem(record, available)
        unsigned = unsigned or why is not None
        why = why or binding_problem(record, kind, trusted)
        if why is None:
            return True, None
        reasons.append(why)
    return False, "; ".join(reasons) + (": an unsigned or badly signed approval counts as none" if unsigned else "")


def _spent(record: dict, spent: set[bytes], trusted: Sequence[Source], signers: Signers) -> str | None:
    """Why ``record`` was given for an earlier change: the trusted (parent) side holds it, or the published line
    does and the judged change's history does not hold it from there — a branch forked before it was given, its
    line copied in (read 154's F-0543: spent on main, it counted again there). None: not spent."""
    who = f"the approval signed by {record.get('signer')} at {record.get('at')} was given for an earlier change"
    payload = rules.payload(record)
    if payload in spent:
        return (f"{who} (it is already in {paths.APPROVALS} of {getattr(trusted[0], 'label', 'HEAD')}); "
                "restoring the same file again needs a new approval")
    where = signers.spent_on_line(payload)
    if where is not None:
        return (f"{who} (it is already in {paths.APPROVALS} of {where}, the published line, and this change's history "
                "does not hold it from there): an approval counts once, on whichever branch it is copied to; the same "
                "change here needs a new approval. If this branch's own approving commit reached that line by a "
                "squash or a rebase (its copy there, not this commit, is in the line's history), rebase this branch "
                "onto the line (`git rebase origin/main`, the line named above): the merged copy then carries the "
                "approval (read 158's F-0554)")
    return None


def binding_problem(record: dict, kind: str, trusted: Sequence[Source]) -> str | None:
    """Why a bound ``record`` does not speak to this change: signed in another repository, or
    against another version of the file it loosens than the trusted (parent) side's. None when it
    matches one trusted side — or is a legacy record (no binding: it counts for its exact file
    digest only, as it always did; see docs/approvals.md)."""
    rel = rules.FILES.get(kind)
    if rel is None or not rules.is_bound(record):
        return None
    who = f"the approval signed by {record.get('signer')} at {record.get('at')}"
    problems = []
    sides: list[Source | None] = [*trusted] or [None]  # none: a first commit, bound to no repository
    for src in sides:
        label = getattr(src, "label", "HEAD") if src is not None else "a first commit (no parent)"
        want = rules.binding(_repository(src), src.read(rel) if src is not None else None)
        got_repo, got_from = record.get("repository"), record.get("from_digest")
        if got_repo != want["repository"] and want["repository"] is None and src is not None:
            problems.append(f"{who} names repository {_short(got_repo)}, and {label}'s cannot be told (a shallow "
                            "clone ends at its boundary, not at the root commit: `git fetch --unshallow`)")
        elif got_repo != want["repository"]:
            problems.append(f"{who} was given in another repository (root commit {_short(got_repo)}; {label} is in "
                            f"{_short(want['repository'])}): an approval counts only where it was signed")
        elif got_from != want["from_digest"]:
            problems.append(f"{who} loosens {rel} from another version of it (sha256 {_short(got_from)}; {label} has "
                            f"{_short(want['from_digest'])}): the file it was given against has changed since, "
                            "approve again")
        else:
            return None
    return "; ".join(problems)


def _repository(src: Source | None) -> str | None:
    """The repository ``src``'s commit belongs to (None: no commit, or it cannot say)."""
    of = getattr(src, "repository_id", None)
    if of is None:
        return None
    try:
        return of()
    except HarnessError:
        return None


def _short(value: object) -> str:
    return value[:12] if isinstance(value, str) and value else "none"


def signature_problem(record: dict, available: list[Root]) -> str | None:
    """Why ``record``'s signature does not make it count against the trust roots ``available``
    (None when it verifies against one of them)."""
    from harness.signatures import signing

    who = record.get("approved_by") or "someone"
    signature, signer = record.get("signature"), record.get("signer")
    if not isinstance(signature, str) or not isinstance(signer, str) or not signature or not signer:
        return f"the approval recorded for {who} is unsigned"
    if not available:
        return (f"the approval signed by {signer} cannot be checked: no allowed-signers file "
                f"({paths.ALLOWED_SIGNERS} in the committed tree, or git config harness.allowedSigners)")
    why: str | None = ""
    for root in available:
        why = signing.verify(rules.payload(record), signature, signer, root.content, rules.NAMESPACE)
        if why is None:
            return None
    return f"the approval signed by {signer} does not verify against {' or '.join(r.label for r in available)} ({why})"


def listed_for(signature: str, trusted: Sequence[Source], signers: Signers) -> list[str]:
    """The principals (e-mails, or patterns of them) the trust root lists the key that made ``signature`` under: an
    approval counts only when it is signed as one of them (read 103's F-0362: a key listed under another e-mail than
    git's committer e-mail was told to be listed, which it was)."""
    from harness.signatures import signing

    public = signing.signed_with(signature)
    if public is None:
        return []
    kind, blob = public.split(" ", 1)
    found: dict[str, None] = {}
    for root in roots(trusted, signers):
        for line in root.content.decode("utf-8", "replace").splitlines():
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            # principals, [options,] KEYTYPE KEY [comment]: the key found where it stands, options being free text
            if any(words[n] == kind and words[n + 1] == blob for n in range(1, len(words) - 1)):
                found.update(dict.fromkeys(p for p in words[0].strip('"').split(",") if p))
    return list(found)
