#!/usr/bin/env bash
# The "absent module" stubs (F-0006's fix) are decided once per commit, BEFORE its build re-run: every top-level
# name in the checkout's import folder that the commit's tree lacks at that moment is stubbed first on
# PYTHONPATH. A module the build generates in place (an ignored src/genmod.py from a code generator, a C
# extension `build_ext --inplace`/`pip install -e .` puts in src/) is in the checkout, not in the commit's tree,
# and is made by the build re-run inside the tree: the stub still shadows it, and the honest unit_test fails
# ("does not reproduce", exit 1). Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../review-rerun/lib.sh"
run_case <<'PY'
from support.gitrepo import commit_all_ok
from support.records import configure
from support.rerun_range import answer, done, editable, rerun, reruns

GENERATE = "open('src/genmod.py', 'w').write('VALUE = 42\\n')"  # the build: a code generator, in place
CHECK = "import calcpkg, genmod, sys; sys.exit(calcpkg.answer() != 42 or genmod.VALUE != 42)"

def test_a_module_the_build_generates_in_the_tree_is_not_stubbed_out(h, repo, tmp_path):
    python = editable(tmp_path, repo)  # `pip install -e .` of a src/ layout: a .pth naming the checkout's src/
    configure(repo, [str(python), "-c", GENERATE], [str(python), "-c", CHECK])
    answer(repo, 42)
    with open(repo / ".gitignore", "a") as f:
        f.write("src/genmod.py\n")  # generated, never committed
    base = commit_all_ok(repo, "config, package, the generated module ignored")
    sha = done(h, repo, "Honest")  # build generates src/genmod.py, unit_test imports it: passes
    assert (repo / "src" / "genmod.py").is_file()

    code, doc, err = rerun(h, base)
    runs = reruns(doc, sha)
    print({k: (v.get("result"), v.get("outcome"), v.get("exit_code"), v.get("imports_from")) for k, v in runs.items()}, "| exit", code)
    assert runs["unit_test"]["result"] == "reproduces", \
        "DEFECT: the honest unit_test did not reproduce: the stub shadows the module its build made in the tree"
    assert code == 0, "DEFECT: audit --rerun did not exit 0 on an honest range"
PY
