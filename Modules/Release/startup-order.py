#!/usr/bin/env python3
"""Writes lld's symbol ordering file for the release gstplay (stdout): the functions that run
during `gstplay --version`, a headless play and a `--json` play, in the order they first appear.

Why: the kernel maps an executable's code in 64 KiB blocks around each page fault, so a few
thousand small start-up functions spread over 12 MB of .text would map megabytes that never run.
With every function in a section of its own (`-function-sections`) lld lays the listed ones out
together at the front of .text.

How: valgrind's callgrind records every executed instruction address of the binary (debug info
stripped from a copy: valgrind 3.19 cannot read DWARF 5); addresses map to symbols with `nm`.
Functions that sit in a large input section of the static Swift libraries (the standard
library's Swift code is one 1.6 MB section; lld can move it only whole) go last, so that one hot
function in such a section does not put the whole section in front of the small ones.

The compiler's private functions (sections `.text..L*`, no symbol) cannot be named here; the
release link gathers them with Modules/Release/unnamed-functions.ld.

Usage: startup-order.py RELEASE_GSTPLAY FIXTURE > startup.order
"""
import bisect
import glob
import os
import re
import subprocess
import sys
import tempfile

STATIC_LIBRARIES = "/opt/swift/usr/lib/swift_static/linux"
LARGE_SECTION = 32 * 1024


def run(arguments, **kwargs):
    return subprocess.run(arguments, check=True, capture_output=True, text=True, errors="replace", **kwargs).stdout


def function_symbols(binary):
    """(address, size, name) of every defined symbol, sorted by address."""
    symbols = []
    for line in run(["nm", "-S", "--defined-only", binary]).splitlines():
        parts = line.split()
        if len(parts) == 4:
            symbols.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return sorted(symbols)


def executed_addresses(profile, object_suffix):
    """Instruction addresses callgrind counted in the object whose path ends with `object_suffix`
    (the `calls=` lines' following cost line is the call site, also executed)."""
    names, current, addresses = {}, None, []
    for line in open(profile, errors="replace"):
        if line.startswith("ob="):
            value = line[3:].strip()
            match = re.match(r"\((\d+)\)\s*(.*)", value)
            if match:
                if match.group(2):
                    names[match.group(1)] = match.group(2)
                current = names.get(match.group(1), match.group(2))
            else:
                current = value
        elif line.startswith("0x") and current and current.endswith(object_suffix):
            addresses.append(int(line.split()[0], 16))
    return addresses


def large_section_symbols():
    """Symbols defined in an input .text section of LARGE_SECTION bytes or more of the static
    Swift libraries."""
    result = set()
    for library in glob.glob(os.path.join(STATIC_LIBRARIES, "*.a")):
        sizes = {}
        for line in run(["readelf", "-SsW", library]).splitlines():
            if line.startswith("File:"):
                sizes = {}
                continue
            section = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
            if section:
                sizes[section.group(1)] = (section.group(2), int(section.group(3), 16))
                continue
            parts = line.split()
            if len(parts) >= 8 and parts[0].endswith(":") and parts[6].isdigit():
                name, size = sizes.get(parts[6], ("", 0))
                if name.startswith(".text") and size >= LARGE_SECTION:
                    result.add(parts[7])
    return result


def main():
    binary, fixture = sys.argv[1], sys.argv[2]
    symbols = function_symbols(binary)
    starts = [address for address, _, _ in symbols]
    sinks = ["--video-sink", "fakesink sync=true", "--audio-sink", "fakesink sync=true"]
    workloads = [["--version"], ["--quiet"] + sinks + [fixture], ["--json"] + sinks + [fixture]]
    order, seen = [], set()
    with tempfile.TemporaryDirectory() as directory:
        copy = os.path.join(directory, "gstplay")
        run(["objcopy", "--strip-debug", binary, copy])
        for index, arguments in enumerate(workloads):
            profile = os.path.join(directory, f"callgrind.{index}")
            subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no",
                            "--compress-strings=no", f"--callgrind-out-file={profile}", copy] + arguments,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # callgrind gives a position-independent executable's addresses as file addresses.
            for address in executed_addresses(profile, "/gstplay"):
                index_ = bisect.bisect_right(starts, address) - 1
                if index_ < 0:
                    continue
                start, size, name = symbols[index_]
                if start <= address < start + max(size, 1) and name not in seen:
                    seen.add(name)
                    order.append(name)
    # The C entry points of Swift closures (`@convention(c)` thunks, mangled names ending in
    # `To`) are what GLib and GStreamer call back on their own threads; under callgrind's slower,
    # serialised threads some callbacks never run, so all of them (~90, ~4 KB) follow the
    # executed functions.
    order += [name for _, _, name in symbols if name.startswith("$s") and name.endswith("To") and name not in seen]
    large = large_section_symbols()
    ordered = [name for name in order if name not in large] + [name for name in order if name in large]
    sys.stdout.write("\n".join(ordered) + "\n")
    print(f"{len(ordered)} functions ({len(ordered) - len([n for n in ordered if n in large])} movable one by one)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
