#!/usr/bin/env python3
"""docs_paths.py SOURCE_DIR [BUILD_DIR [CTEST]]: every path and name that
the docs mention exists (ctest docs_paths, label unit).

Code moves and docs reorganizations leave references behind that no
compiler sees: a page naming host/internal.h after it was split, a
section that was renamed, a test that moved to another binary. This reads
README.md, kernels/README.md, docs/*.md and docs/perf/*.md and checks:

- paths of the repository (host/..., docs/perf/x.md, examples/<x>/...;
  <x> and * stand for any name, {a,b} for each of a and b), file names
  alone (`check_block.c`: some file of that name), layer paths
  (core/core.h: under host/, tools/ or include/);
- links between pages (a file and an anchor) and a page's section named
  after it, `docs/x.md, "Section"` (a heading or a bold paragraph label
  that starts so);
- names: lsk_, LSK_, px_, pic_ and heat_ identifiers somewhere in the
  sources (kernels whose names the preprocessor pastes, built per type,
  pass by their pattern), test_ functions in the tests, suites given to
  suite_create; with BUILD_DIR, ctest names and labels (CTEST -N,
  --print-labels; CTEST defaults to ctest).

Placeholders a page uses on purpose (FILE.cl, out.json) are listed below.
Prints each dead reference as page:line: what, and exits 1 if there is
one. Python 3's standard library only.
"""
import glob
import os
import re
import subprocess
import sys

# Names in the docs that are not files or names of this repository: the
# user's own files in examples of commands, outside projects' files.
NOT_OURS = {
    "FILE.cl", "FILE.png", "FILE.gp", "out.json", "out.png", "t.json", "t.png",
    "trace.json", "bench.json", "bench.png", "pred.cl", "bad.cl", "app.c", "bw.c",
    "SimulationHelper.cpp", "sm90.md", "device.md", "mpi_leave_pinned",
    # docs/getting-started.md: the reader's own files.
    "first.c", "saxpy.cl", "stencil.c", "stencil.cl", "queues.c", "queues-trace.json",
    "LSK_WORKERS,1,1",
    # docs/bench.md: bench/peer_taichi.py as the build copies it next to lsk.
    "lsk-peer-taichi.py",
}
# Kernels and block collectives whose names the preprocessor pastes.
PASTED = re.compile(r"^lsk_(reduce|scan|histogram|halo|random|sort|block)_(\w*_)?"
                    r"(int|uint|long|ulong|float|double|u32|u64|f32|f64)(_\w+)?$")
ROOTS = r"(?:\.ci|host|include|cl|kernels|bench|tools|examples|tests|cmake|docs)"
PATH = re.compile(r"(?<![\w./$-])(" + ROOTS + r"/[\w.*<>{}/+,-]*[\w*>}/])")
BASE = re.compile(r"(?<![\w./$<>*-])([\w-]+\.(?:c|h|cl|sh|cmake|md|py|cpp|layout|map|json|png"
                  r"|gp|supp|dict|in))(?!\w)")
LAYER = re.compile(r"(?<![\w./-])((?:core|launch|soa|algo|mem|mpi|lsk|common)/[\w*<>]+\.(?:c|h|cl))\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")
SECTION = re.compile(r'((?:docs/)?[\w./-]+\.md)(?:\)|\]\([^)]*\))?,? \(?["“]([^"”]+)["”]')
ANCHOR = re.compile(r"((?:docs/)?[\w./-]+\.md)#([\w-]+)")
IDENT = re.compile(r"(?<![\w$])((?:lsk_|lsk__|LSK_|LSK__|px_|pic_|heat_|tu_)[\w<>{},]*[\w>}])")
CTEST_NAME = re.compile(r"`((?:oclgrind|rusticl|gpushape|cli|mpi|fuzz|tools|bench|group|badinput"
                        r"|install|layout)_\w+)`")


def repo_files():
    try:
        out = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True)
        return out.stdout.split()
    except (OSError, subprocess.CalledProcessError):  # a tarball: walk the tree
        files = []
        for d, sub, names in os.walk("."):
            sub[:] = [s for s in sub if not s.startswith((".", "build"))]
            files += [os.path.relpath(os.path.join(d, n)) for n in names]
        return files


def headings(page, cache={}):
    """A page's section names: headings, and bold paragraph labels."""
    if page not in cache:
        names, fence = [], False
        for line in open(page, encoding="utf-8"):
            if line.startswith("```"):
                fence = not fence
            elif not fence and re.match(r"#{1,4} ", line):
                names.append(line.lstrip("#").strip())
            elif not fence:
                names += [m.rstrip(".:") for m in re.findall(r"(?:^|\. )\*\*([^*]+)\*\*", line)]
        cache[page] = names
    return cache[page]


def slug(heading):
    return re.sub(r"[^\w\- ]", "", heading.lower().replace("`", "")).replace(" ", "-")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n")[0])
    build = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    ctest = sys.argv[3] if len(sys.argv) > 3 else "ctest"
    os.chdir(sys.argv[1])
    files = repo_files()
    fileset, bases, dirs = set(files), {os.path.basename(f) for f in files}, set()
    for f in files:
        while "/" in f:
            f = f.rsplit("/", 1)[0]
            dirs.add(f)

    def text(prefixes):
        parts = []
        for f in files:
            if f.startswith(prefixes) and f.endswith((".c", ".h", ".cpp", ".sh", ".cmake", ".txt", ".cl")):
                with open(f, encoding="utf-8", errors="replace") as fh:
                    parts.append(fh.read())
        return "\n".join(parts)

    tests = text(("tests/", "examples/", "tools/", "bench/"))
    sources = tests + "\n" + text(("host/", "include/", "cl/", "kernels/", "cmake/", "CMakeLists.txt"))
    suites = set(re.findall(r'suite_create\("([^"]+)"', tests))
    test_words, source_words = set(re.findall(r"\w+", tests)), set(re.findall(r"\w+", sources))
    ctests, labels = set(), set()
    if build:
        out = subprocess.run([ctest, "--test-dir", build, "-N"], capture_output=True, text=True).stdout
        ctests = set(re.findall(r"Test +#\d+: (\S+)", out))
        out = subprocess.run([ctest, "--test-dir", build, "--print-labels"], capture_output=True,
                             text=True).stdout
        labels = {l.strip() for l in out.split("All Labels:")[-1].splitlines() if l.strip()}

    def exists(path):
        """The path exists, for every expansion of its {a,b} and each <x> or * in it."""
        path = path.rstrip("/,.")
        m = re.search(r"\{([^}]*)\}", path)
        alts = [path[:m.start()] + a + path[m.end():] for a in m.group(1).split(",")] if m else [path]
        for a in alts:
            a = re.sub(r"<[^>]*>", "*", a)
            if "*" in a:
                if not glob.glob(a):
                    return False
            elif not (a in fileset or a in dirs or os.path.exists(a)
                      or (build and os.path.exists(os.path.join(build, a)))):
                return False
        return True

    dead = []

    def section(where, page, name):
        if not page.startswith("docs/") and page != "README.md":
            page = os.path.normpath(os.path.join(os.path.dirname(where[0]), page))
        if not os.path.exists(page):
            dead.append((*where, f"page {page} does not exist"))
        elif not any(h.startswith(name) or slug(h).startswith(slug(name)) for h in headings(page)):
            dead.append((*where, f'{page} has no section "{name}"'))

    pages = ["README.md", "kernels/README.md"] + sorted(glob.glob("docs/*.md")) \
        + sorted(glob.glob("docs/perf/*.md"))
    for page in pages:
        for n, line in enumerate(open(page, encoding="utf-8"), 1):
            at = (page, n)
            for p in PATH.findall(line):
                if not exists(p):
                    dead.append((*at, f"path {p} does not exist"))
            for b in BASE.findall(line):
                if b not in bases and b + ".in" not in bases and b not in NOT_OURS:
                    dead.append((*at, f"no file is named {b}"))
            for p in LAYER.findall(line):
                if not any(exists(r + p) for r in ("host/", "tools/", "include/")):
                    dead.append((*at, f"{p} is under none of host/, tools/, include/"))
            for target in LINK.findall(line):
                if target.startswith(("http:", "https:", "mailto:")):
                    continue
                file, _, anchor = target.partition("#")
                file = os.path.normpath(os.path.join(os.path.dirname(page), file)) if file else page
                if not os.path.exists(file):
                    dead.append((*at, f"link {target}: no {file}"))
                elif anchor and file.endswith(".md") and anchor not in map(slug, headings(file)):
                    dead.append((*at, f"link {target}: no such anchor"))
            for target, name in SECTION.findall(line) + ANCHOR.findall(line):
                section(at, target, name)
            for t in IDENT.findall(line):
                t = re.split(r"[<{]", t)[0]
                if t in NOT_OURS or t.endswith("_") or PASTED.match(t):
                    continue
                if t not in source_words and not any(w.startswith(t) for w in source_words):
                    dead.append((*at, f"{t} is in no source"))
            for t in re.findall(r"\btest_\w*[^\W_]\b", line):
                if t not in test_words:
                    dead.append((*at, f"no test function {t}"))
            for m in re.finditer(r"\bsuites? ((?:`\w+`(?:,? (?:and |or )?)?)+)", line):
                for s in re.findall(r"`(\w+)`", m.group(1)):
                    if s not in suites:
                        dead.append((*at, f"no suite {s}"))
            if not build:
                continue
            for m in re.finditer(r"\bctests? ((?:`\w+`(?:,? (?:and |or )?)?)+)", line):
                for t in re.findall(r"`(\w+)`", m.group(1)):
                    if t not in ctests:
                        dead.append((*at, f"no ctest {t}"))
            for t in CTEST_NAME.findall(line):
                if t not in ctests and t not in NOT_OURS and t not in source_words:
                    dead.append((*at, f"no ctest {t}"))
            for m in re.finditer(r"\blabels? \(?((?:`\w+`(?:,? (?:and |or )?)?)+)", line):
                for t in re.findall(r"`(\w+)`", m.group(1)):
                    if t not in labels:
                        dead.append((*at, f"no ctest label {t}"))
            for t in re.findall(r"\bctest labels? (\w+)\b", line):
                if t not in labels:
                    dead.append((*at, f"no ctest label {t}"))
    dead = list(dict.fromkeys(dead))  # one line per finding, in page order
    for page, n, what in dead:
        print(f"{page}:{n}: {what}")
    print(f"docs_paths.py: {len(pages)} pages, {len(dead)} dead references"
          + ("" if build else " (ctest names and labels not checked: no build directory)"))
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
