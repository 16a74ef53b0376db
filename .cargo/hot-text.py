#!/usr/bin/env python3
"""Regenerates .cargo/hot-text.ld, the list of functions `fifteen sliding` runs.

    cargo build --release && python3 .cargo/hot-text.py > .cargo/hot-text.ld
    touch src/main.rs && cargo build --release     # cargo does not watch the script

Regenerate after changes to the sliding engine or the command line (and after merges):
a stale list costs memory, never correctness (a function missing from it sits among the
cold code, and a run that calls it makes one more 64 KB window resident).

Why: a short `fifteen sliding` run executes only a few hundred KB of the binary's 2.5 MB of
code (startup, clap, the puzzle reader, one search, the output), but scattered over the whole
text segment, and the kernel maps file pages in 64 KB fault-around windows (or whole large
page-cache folios): without the list nearly all of the text became resident (2.2 MB).

How: runs the release binary under gdb (a breakpoint on every function) on the puzzles of
tests/data/sliding in every style, counts in how many runs each function ran, and writes a
linker script that places them before `.text`, the most used first. Rust functions are
matched by their section names with hashes and crate disambiguators replaced by `*` (so all
instances of a generic function that ran are listed), and some code is listed whole (see
WHOLE); C functions (static glibc) by their archive members, with the AVX2 and EVEX variants
of every string function (glibc chooses one at startup for the CPU at hand). The read-only
data they read is placed the same way. `--names FILE` keeps (or reuses) the traced counts.
Needs gdb, nm and cc on the PATH; takes a few minutes.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


HEADER = """\
/* The functions a `fifteen sliding` run executes, placed together before the rest of the code
 * (see .cargo/config.toml): the kernel maps the binary in 64 KB windows, and this keeps a short
 * run from making nearly all of its 2.5 MB of code resident. Written by .cargo/hot-text.py
 * (which says how to regenerate it); a stale entry costs memory, never correctness. */"""


# Crates whose unnamed constants (formatting pieces, panic locations) are read at start-up.
RODATA_CRATES = ["fifteen", "clap_builder", "clap_lex", "std", "core", "alloc"]

# C members whose tables the functions that run read (the C locale's character classes, read
# by sscanf and isspace; the limits of strtoul).
C_DATA = {"*libc.a:C-ctype.o", "*libc.a:strtol_l.o"}

# Code listed whole, whatever ran: the search engine and its command (their functions, and
# trait impls and drop glue of their types), whose code changes most often, and clap's parser
# (not its help and error output), whose generic functions the command line's code
# instantiates. A change moves the compiler's inlining: a function or generic instance that
# was inlined yesterday may be a function of its own today, and land among the cold code.
WHOLE = [
    "_ZN7fifteen7sliding*",
    "_ZN7fifteen3cli7sliding*",
    "_ZN*fifteen..sliding..*",
    "_ZN12clap_builder6parser*",
    "_ZN12clap_builder7builder7command*",
    "_ZN12clap_builder7builder3arg*",
    "_ZN12clap_builder7builder9arg_group*",
    "_ZN12clap_builder7builder12value_parser*",
    "_ZN12clap_builder4util*",
    "_ZN12clap_builder7mkeymap*",
]


def default_binary():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "x86_64-unknown-linux-gnu", "release", "fifteen")


def runs():
    """The command lines traced: every puzzle in every style with --quiet, and without it
    in style 0."""
    for puzzle in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "sliding", "*.txt"))):
        for style in range(6):
            yield ["sliding", "--style", str(style), "--quiet", puzzle]
        yield ["sliding", "--style", "0", puzzle]


# Run under gdb with a breakpoint on the first instruction of every function, each removed
# when hit: the functions that ran natively (valgrind would miss the ones glibc runs only on
# real hardware, such as the vDSO set-up and the CPU's own string function variants).
GDB_SCRIPT = """
import gdb, os, subprocess
binary = gdb.current_progspace().filename
out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True).stdout
functions = {}
for line in out.splitlines():
    p = line.split()
    if len(p) == 3 and p[1] in "tTwWi":
        functions.setdefault(int(p[0], 16), []).append(p[2])
gdb.execute("set pagination off")
gdb.execute("starti")
breakpoints = {a: gdb.Breakpoint("*0x%x" % a, internal=True) for a in functions}
ran = set()
while True:
    try:
        gdb.execute("continue", to_string=True)
        pc = int(gdb.parse_and_eval("$pc"))
    except gdb.error:
        break
    if pc not in breakpoints:
        break
    ran.update(functions[pc])
    breakpoints.pop(pc).delete()
open(os.environ["HOT_TEXT_OUT"], "w").write("\\n".join(sorted(ran)))
"""


def trace(binary, args):
    """The (mangled) names of the functions that ran."""
    with tempfile.TemporaryDirectory() as tmp:
        script, out = os.path.join(tmp, "trace.py"), os.path.join(tmp, "ran.txt")
        with open(script, "w") as f:
            f.write(GDB_SCRIPT)
        subprocess.run(["gdb", "-q", "-batch", "-nx", "-x", script, "--args", binary] + args,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=dict(os.environ, HOT_TEXT_OUT=out),
                       check=False)
        with open(out) as f:
            return set(f.read().split())


def c_libraries():
    """Archive and object files of the C runtime the static link uses."""
    files = []
    for name in ["crt1.o", "crti.o", "crtbeginT.o", "crtend.o", "crtn.o", "libc.a", "libm.a",
                 "libgcc.a", "libgcc_eh.a", "libpthread.a"]:
        path = subprocess.run(["cc", "-print-file-name=" + name], capture_output=True,
                              text=True).stdout.strip()
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            head = f.read(512)
        if head.startswith(b"/* GNU ld script"):
            # libm.a is `GROUP ( libm-2.36.a libmvec.a )`
            files += re.findall(r"(/\S+\.a)", open(path).read())
        else:
            files.append(path)
    return files


def c_members(files):
    """Function name -> members defining it (`*libc.a:memchr.o`), and the ifunc names (the
    string functions whose variant is chosen at startup)."""
    members, ifuncs = {}, set()
    for path in files:
        out = subprocess.run(["nm", "-A", "--defined-only", path], capture_output=True,
                             text=True).stdout
        base = os.path.basename(path)
        for line in out.splitlines():
            # `/usr/lib/.../libc.a:memchr.o:0000000000000000 i memchr` (no member for a .o)
            parts = line.split()
            if len(parts) != 3 or parts[1].lower() not in ("t", "i", "w"):
                continue
            where = parts[0].rsplit(":", 1)[0]
            if path.endswith(".a"):
                pattern = f"*{base}:{where.rsplit(':', 1)[1]}"
            else:
                pattern = f"*{base}"
            members.setdefault(parts[2], set()).add(pattern)
            if parts[1] == "i":
                ifuncs.add(parts[2])
    return members, ifuncs


def rust_pattern(name):
    """A section-name glob for a Rust function, without hashes and crate disambiguators."""
    legacy = re.match(r"^(_ZN.*17h)[0-9a-f]{16}E", name)
    if legacy:
        return legacy.group(1) + "*"
    if name.startswith("_R"):
        base = re.sub(r"\.llvm\.\d+$", "", name)
        return re.sub(r"Cs[0-9A-Za-z]+_", "Cs*_", base) + "*"
    return None


def main():
    args = sys.argv[1:]
    names_file = None
    if len(args) >= 2 and args[0] == "--names":
        names_file, args = args[1], args[2:]
    binary = args[0] if args else default_binary()
    # How many of the traced runs ran each function.
    runs_of = Counter()
    if names_file and os.path.exists(names_file):
        for line in open(names_file):
            name, count = line.split()
            runs_of[name] = int(count)
    else:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for names in pool.map(lambda a: trace(binary, a), list(runs())):
                runs_of.update(names)
        if names_file:
            with open(names_file, "w") as f:
                f.writelines(f"{n} {k}\n" for n, k in sorted(runs_of.items()))
    members, ifuncs = c_members(c_libraries())
    all_members = {m for ms in members.values() for m in ms}
    c, ran = Counter(), {}
    for name, count in runs_of.items():
        pattern = rust_pattern(name)
        if pattern:
            ran.setdefault(pattern, set()).add(name)
        elif name in members:
            for member in members[name]:
                c[member] = max(c[member], count)
            # An ifunc resolver ran: another CPU would choose another variant; take the
            # AVX2 and EVEX ones (memchr.o -> memchr-avx2.o, memchr-evex.o).
            if name in ifuncs:
                for member in members[name]:
                    family = member[:-len(".o")] + "-"
                    for m in all_members:
                        if (m.startswith(family) and "rtm" not in m
                                and re.match(r"(avx2|evex)", m[len(family):])):
                            c[m] = max(c[m], count)
        elif re.match(r"^[A-Za-z_][A-Za-z0-9_.]*$", name):
            ran.setdefault(name, set()).add(name)  # #[no_mangle] and `main`: `.text.NAME`
    # Generic functions: the pattern also matches the instances that did not run (the legacy
    # mangling tells instances apart only by a hash, and the hashes differ between the
    # `cargo build` and the `cargo test` builds of the binary: exact names would not last).
    rust = Counter({p: max(runs_of[i] for i in instances) for p, instances in ran.items()})

    # The functions every run executes first, then the fewer runs the later, then the rest
    # of what is listed whole: a run's pages gather at the start.
    def by_runs(counter):
        return sorted(counter, key=lambda k: (-counter[k], k))
    crt = ["*crt1.o", "*crti.o", "*crtbeginT.o"]
    c_order = crt + [m for m in by_runs(c) if m not in crt]
    rust_order = by_runs(rust) + WHOLE
    print(HEADER)
    print("SECTIONS\n{")
    # The startup files and the stubs of the string functions come first.
    print("  .init : { KEEP (*(SORT_NONE(.init))) }")
    print("  .fini : { KEEP (*(SORT_NONE(.fini))) }")
    print("  .iplt : { *(.iplt) }")
    print("  .text.hot :\n  {")
    # The C start-up files first (gdb sees some of their functions only as addresses).
    for member in c_order:
        print(f"    {member}(.text .text.*)")
    for pattern in rust_order:
        print(f"    *(.text.{pattern} .text.unlikely.{pattern})")
    print("  }\n}\nINSERT BEFORE .text;")
    # The read-only data those functions read, the same way (their jump tables; the C
    # members' data; the unnamed constants of the crates they belong to; the merged strings),
    # followed by .eh_frame, whose first word the C start-up reads.
    print("\nSECTIONS\n{\n  .rodata.hot :\n  {")
    for member in c_order + sorted(C_DATA - set(c_order)):
        print(f"    {member}(.rodata .rodata.*)")
    print("    *fifteen-*.rcgu.o(.rodata..Lanon.* .rodata.anon.*)")  # the binary's own object
    for krate in RODATA_CRATES:
        print(f"    *lib{krate}-*.rlib:*(.rodata..Lanon.* .rodata.anon.*)")
    print("    *(.rodata.str* .rodata.cst*)")
    for pattern in rust_order:
        print(f"    *(.rodata.{pattern} .rodata.unlikely.{pattern} .rodata..Lswitch.table.{pattern})")
    print("  }\n  .eh_frame : { KEEP (*(.eh_frame)) }\n}\nINSERT BEFORE .rodata;")
    # (Without this the linker puts the unwinding tables of exceptions before it all.)
    print("\nSECTIONS\n{\n  .gcc_except_table : { *(.gcc_except_table .gcc_except_table.*) }")
    print("}\nINSERT AFTER .rodata;")


if __name__ == "__main__":
    main()
