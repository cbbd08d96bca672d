#!/usr/bin/env python3
"""cli_docs.py LSK SOURCE_DIR: every `lsk` command the docs show exists and
runs (ctest cli_docs, label cli).

A page that names `lsk demo tour` or `lsk check` is only useful if the
command has it: this reads README.md and docs/*.md, takes every `lsk SUB`
and `lsk demo NAME` written as code (a `code span`, an indented block or a
fenced block; prose such as "lsk is a library" is not code), and checks:

- SUB is one of the commands `lsk help` lists (or `help` itself);
- NAME is one of the demos `lsk demo --help` lists;
- `lsk SUB --help` and `lsk demo NAME --help` exit 0, each once.

Global options before the command (`lsk --device 0 info`, `lsk [--device
SEL] check`) are skipped the way lsk skips them; a placeholder (`lsk
<command>`, `lsk SUB`) is no command. Prints each problem as page:line:
what, and exits 1 if there is one. Python 3's standard library only.
"""
import glob
import os
import re
import subprocess
import sys

# lsk, the global options lsk takes before the command, then a word.
CMD = re.compile(r"(?:^|[\s(`'\"])lsk((?:\s+(?:\[--device SEL\]|--device[= ]\S+|--version|-h|--help))*)"
                 r"\s+([a-z][a-z0-9-]*)(?:\s+([a-z][a-z0-9-]*))?")


def code_lines(path):
    """(line number, code text) for each line's code: the whole line in an
    indented or fenced block, else its `code spans`."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced or line.startswith("    ") or line.startswith("\t"):
                yield n, line
            else:
                for span in re.findall(r"`([^`]+)`", line):
                    yield n, span


def listed(lsk, args, pattern):
    """The names a help text lists: lines matching pattern's group 1."""
    out = subprocess.run([lsk] + args, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"cli_docs: lsk {' '.join(args)} exited {out.returncode}: {out.stderr}")
    return {m.group(1) for m in re.finditer(pattern, out.stdout, re.M)}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    lsk, src = sys.argv[1], sys.argv[2]
    subs = listed(lsk, ["help"], r"^  ([a-z][a-z0-9-]*) ")
    demos = listed(lsk, ["demo", "--help"], r"^  ([a-z][a-z0-9-]*) ")
    if not subs or "demo" not in subs or not demos:
        sys.exit(f"cli_docs: cannot read the lists: commands {sorted(subs)}, demos {sorted(demos)}")
    pages = [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))
    problems, seen = [], {}
    for page in pages:
        rel = os.path.relpath(page, src)
        for n, text in code_lines(page):
            for m in CMD.finditer(text):
                sub, name = m.group(2), m.group(3)
                where = f"{rel}:{n}"
                if sub not in subs:
                    problems.append(f"{where}: `lsk {sub}`: no such command in `lsk help`")
                    continue
                seen.setdefault((sub,), where)
                if sub == "demo" and name and not name.startswith("-"):
                    if name not in demos:
                        problems.append(f"{where}: `lsk demo {name}`: no such demo in `lsk demo --help`")
                    else:
                        seen.setdefault((sub, name), where)
    for cmd, where in sorted(seen.items()):
        args = list(cmd) + ["--help"] if cmd != ("help",) else ["help"]
        out = subprocess.run([lsk] + args, capture_output=True, text=True, check=False,
                             stdin=subprocess.DEVNULL, timeout=60)
        if out.returncode != 0 or not out.stdout.strip():
            problems.append(f"{where}: `lsk {' '.join(args)}` exited {out.returncode}"
                            f" ({'no output' if not out.stdout.strip() else 'output'}): "
                            f"{out.stderr.strip()[:200]}")
    for p in problems:
        print(p)
    print(f"cli_docs: {len(pages)} pages, {len(seen)} commands run with --help, "
          f"{len(problems)} problems (commands: {', '.join(sorted(subs))}; demos: {', '.join(sorted(demos))})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
