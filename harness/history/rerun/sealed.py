"""The auditing process kept from what its re-runs write (read 164's F-0563, read 165's F-0572).

Each command a re-run starts gets a fresh bytecode cache folder of its own, but the audit's own interpreter read the
`__pycache__` folders beside its sources: a re-run that wrote `harness/cli/__pycache__/hooks.cpython-311.pyc` (its
header matching the source's size and time) had it run when the text report first imported that module, after the
re-runs, and the audit exited 0 over a result that did not reproduce. A private cache folder for the audit's later
imports was no answer: it stood in the job's temporary folder, where a re-run found it, and a junit report declaring
`encoding="koi8_r"` made the audit import that codec from a `.pyc` planted there (F-0572); a codec's source, a
standard-library file CI's toolcache lets a re-run rewrite, would do the same before the fingerprint is compared. So
before the first re-run starts, the audit imports every module the harness names anywhere (each of its own, and
what each import statement in its source names, a function's too) and every codec, and from then on loads no module
at all: an import of one not loaded yet raises ImportError (:class:`_NoLateImports`), and the audit fails rather
than run code a re-run could have written.
"""

from __future__ import annotations

import ast
import functools
import importlib
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType, TracebackType

from harness.history.rerun import kernel_caps, kernel_reach


class Sealed:
    """The audit's own imports, all done before its first re-run (:meth:`arm`), none after it until the audit ends,
    and the audit not dumpable meanwhile: a re-run runs as the audit's user, and where nothing else forbids it (no
    Yama, or its `ptrace_scope` 0) it attached to the audit as a debugger and made it `_exit(0)` before its verdict
    (read 168's F-0574); a process that is not dumpable can be attached to, or have its memory read, only by root.
    The in-process test runner runs many commands per process: both are put back after."""

    def __init__(self) -> None:
        self.finder: _NoLateImports | None = None
        self.dumpable: int | None = None  # what it was, to put back; None when it was not changed
        self.reachable: str | None = None  # armed, why a re-run could still attach to the audit (none then runs)
        self.namespace: kernel_reach.Left | None = None  # what the armed seal's view left (root: F-0584)
        self.left_in_view = False  # ended, whether the process stays in the view (a user namespace's root: F-0593)

    def arm(self) -> None:
        if self.finder is not None:
            return
        preload()
        self.dumpable = _set_dumpable(0)
        self.namespace = kernel_reach.take_kernel_writes_away()  # root: a core-dump helper runs outside the seal
        kernel_held = kernel_caps.drop_kernel_capabilities()  # what could undo that view (read 175's F-0588)
        _drop_ptrace_from_children()
        # What the drops could not take away: the audit re-runs nothing rather than be reachable (read 170's F-0577).
        linux = sys.platform.startswith("linux")
        self.reachable = REACHABLE if linux and (kernel_held or reachable_after_the_drop()) else None
        self.finder = _NoLateImports()
        sys.meta_path.insert(0, self.finder)

    def __enter__(self) -> Sealed:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.finder is not None:
            sys.meta_path.remove(self.finder)
            self.finder = None
        if self.dumpable is not None:
            _set_dumpable(self.dumpable)
            self.dumpable = None
        self.left_in_view = not kernel_reach.give_back(self.namespace)
        self.namespace = None


def ancestors_exposed(scope_file: str = "/proc/sys/kernel/yama/ptrace_scope", status_file: str = "/proc/self/status",
                      root: bool | None = None) -> bool:
    """Whether a re-run here may debug a process of the audit's user that is not its descendant (CI's shell, the
    runner: no process of the audit's to seal, read 169), judged by what a program the audit starts holds (read 170):
    one holding CAP_SYS_PTRACE attaches anywhere Yama allows anything (`ptrace_scope` under 3); one without it, where
    there is no Yama or its `ptrace_scope` is 0, to any process of its user whose capabilities are no more than its
    own — not to the ancestors of an audit that holds the capability (root), since they hold it too. macOS asks for
    more than the same user (the debugger's entitlement); any other system is taken to ask for no more (FreeBSD's
    default lets a process debug another of its user): said exposed, never claimed covered."""
    if sys.platform == "darwin":
        return False
    if not sys.platform.startswith("linux"):
        return True
    scope = _yama_scope(scope_file)  # None: no Yama, the same user is all a debugger needs
    if children_hold_ptrace(status_file, root):
        return scope != "3"
    if scope not in (None, "0"):
        return False
    held = kernel_caps.capabilities(status_file)
    return held is None or not held.get("CapPrm", 0) >> _CAP_SYS_PTRACE & 1


def reachable_after_the_drop(scope_file: str = "/proc/sys/kernel/yama/ptrace_scope",
                             status_file: str = "/proc/self/status", root: bool | None = None,
                             kernel_file: str = kernel_reach.CORE_PATTERN,
                             mountinfo: str = kernel_reach.MOUNTINFO) -> bool:
    """Whether a re-run could still reach the sealed audit: a program it starts holds CAP_SYS_PTRACE
    (:func:`children_hold_ptrace`), or the audit's bounding set keeps it (a user's audit cannot drop it) where a re-run
    may debug another process of the user (no Yama, or its `ptrace_scope` 0) — one started outside the audit, without
    no_new_privs, which it has execute a setuid or file-capability program that gains the capability and attaches to
    the audit (read 172's F-0581); or it may hold a capability reaching the kernel handed down in its inheritable or
    ambient set (:mod:`kernel_caps`, read 175's F-0588), or, run as root, write the kernel's core-dump helper setting
    (:mod:`kernel_reach`, F-0584). Unknown: reachable."""
    if children_hold_ptrace(status_file, root) or kernel_caps.children_hold(status_file, root, bounding=False):
        return True
    if kernel_reach.kernel_settings_writable(kernel_file, root, mountinfo):
        return True
    held = kernel_caps.capabilities(status_file)
    if held is None:
        return True
    return bool(held.get("CapBnd", 0) >> _CAP_SYS_PTRACE & 1) and _yama_scope(scope_file) in (None, "0")


def _yama_scope(scope_file: str) -> str | None:
    """Yama's `ptrace_scope` ("0" to "3"), None where there is no Yama."""
    try:
        with open(scope_file, encoding="ascii") as f:
            return f.read().strip()
    except OSError:
        return None


def children_hold_ptrace(status_file: str = "/proc/self/status", root: bool | None = None) -> bool:
    """Whether a program this process starts may hold CAP_SYS_PTRACE: from its ambient or inheritable set, or from
    its bounding set, which root execs with, as does anyone executing a setuid or file-capability program unless
    no_new_privs forbids an exec to grant anything (read 171's F-0579). Unknown: yes."""
    held = kernel_caps.capabilities(status_file)
    if held is None:
        return True
    root = os.geteuid() == 0 if root is None else root
    granting = root or held.get("NoNewPrivs", 0) != 1
    sets = ("CapAmb", "CapInh", "CapBnd") if granting else ("CapAmb", "CapInh")
    return any(held.get(name, 0) >> _CAP_SYS_PTRACE & 1 for name in sets)


_GET_DUMPABLE, _SET_DUMPABLE = 3, 4  # PR_GET_DUMPABLE, PR_SET_DUMPABLE
_SET_NO_NEW_PRIVS = 38  # PR_SET_NO_NEW_PRIVS
REACHABLE = ("a re-run could still reach this audit and decide its verdict, so none is run: a program the audit "
             "starts would hold CAP_SYS_PTRACE (from its inheritable or ambient set, or, run as root, its bounding "
             "set, which it could not drop), or its bounding set keeps it where a re-run may debug another process of "
             "this user and have it execute a setuid or file-capability program (no Yama, or kernel.yama.ptrace_scope "
             "0); or a program would hold a capability reaching the kernel or another user's identity (CAP_SYS_ADMIN, "
             "CAP_SYS_MODULE, CAP_SYS_RAWIO, CAP_SYS_BOOT, CAP_PERFMON, CAP_BPF, CAP_SETUID, CAP_SETGID) the audit "
             "could not drop; or, run as root, it could still write /proc/sys/kernel/core_pattern or a kernel "
             "filesystem left read-write, and have the kernel start a program of its own with every capability "
             "(F-0584). Run the audit as root in a container (without --cap-add SYS_PTRACE), whose bounding set loses "
             "the capability: an ordinary user's audit where `ptrace_scope` is 1 or more runs, but is not out of reach "
             "either (docs/ci.md, read 173's F-0582)")
_CAP_SYS_PTRACE = 19  # linux/capability.h


def _prctl() -> Callable[..., int] | None:
    """libc's prctl(2); None where there is none (not Linux: there a process of the same user is no debugger of
    another without privileges the platform grants)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _drop_ptrace_from_children() -> None:
    """CAP_SYS_PTRACE out of every set a program started from now on can get it from: the bounding set (root execs
    with it: an audit run as root in a container's CI), the inheritable set (root execs with it too: an older container
    runtime's --cap-add SYS_PTRACE fills it, read 170's F-0577) and the ambient set (any user's programs keep it).
    Irreversible for this process, which ends with the audit. Without CAP_SETPCAP the bounding set stays (EPERM), so
    no program started from now on gains anything when executed either (no_new_privs: a setuid `sudo`, a program
    with file capabilities, read 171's F-0579; a project whose re-run needs sudo cannot have it). What stayed,
    :func:`children_hold_ptrace` tells after."""
    import ctypes

    prctl = _prctl()
    if prctl is None:
        return
    prctl(_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), 0, 0, 0)
    kernel_caps.lower((_CAP_SYS_PTRACE,))


def _set_dumpable(value: int) -> int | None:
    """prctl(PR_SET_DUMPABLE, ``value``); what it was, or None where that cannot be done."""
    import ctypes

    prctl = _prctl()
    if prctl is None:
        return None
    was = prctl(_GET_DUMPABLE, 0, 0, 0, 0)
    return was if was >= 0 and prctl(_SET_DUMPABLE, ctypes.c_ulong(value), 0, 0, 0) == 0 else None


class _NoLateImports:
    """First on ``sys.meta_path`` while sealed: any module not imported yet is refused, found nowhere."""

    def find_spec(self, name: str, path: object = None, target: ModuleType | None = None) -> None:
        raise ImportError(f"harness audit: module {name} was not loaded before the re-runs started, and none is loaded "
                          "after (a re-run could have written it: read 165's F-0572); report this as a bug of the "
                          "harness", name=name)


def preload() -> None:
    """Import every module :func:`named_modules` lists; one that does not import is left (it would not later)."""
    with warnings.catch_warnings():  # a deprecated name looked up here is the code's to warn of where it uses it
        warnings.simplefilter("ignore")
        _import_each(named_modules())
        _import_each(_codecs())


def _codecs() -> tuple[str, ...]:
    """Every codec of the standard library: a codec is imported when text first names it (an XML declaration's
    `encoding=`, a locale), by the codec registry, not by an import statement."""
    import encodings
    import pkgutil

    return tuple(f"encodings.{m.name}" for m in pkgutil.iter_modules(encodings.__path__))


def _import_each(names: tuple[str, ...]) -> None:
    for name in names:
        if name in sys.modules:
            continue
        parent_name, _, leaf = name.rpartition(".")
        parent = sys.modules.get(parent_name)
        if parent is None or hasattr(parent, "__path__"):
            try:
                importlib.import_module(name)
                continue
            except Exception:  # an optional module missing here (tomli beside tomllib), or one failing as it would
                pass
        if parent is not None:  # `from concurrent.futures import ThreadPoolExecutor`: an attribute its module loads
            getattr(parent, leaf, None)  # lazily, at first use (a module `__getattr__`), loaded now


@functools.cache  # the installed source's: read once a process (the in-process test runner audits many times)
def named_modules() -> tuple[str, ...]:
    """The harness's own modules (not a `__main__`, which would run the CLI) and every module an import statement in
    their source names, at any depth: `a.b` and, for `from a.b import c`, `a.b.c` too (a submodule, when it is one)."""
    import harness

    root = Path(harness.__file__).parent
    names: dict[str, None] = {}
    for path in sorted(root.rglob("*.py")):
        module = ".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")
        if not module.endswith("__main__"):
            names[module] = None
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for name in _imports(path.read_text("utf-8"), package):
            names.setdefault(name, None)
    return tuple(names)


def _imports(text: str, package: str) -> list[str]:
    """The absolute names of the modules ``text`` imports (a module of ``package``); relative ones resolved."""
    out: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            out += [base, *(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")] if base else []
    return out
