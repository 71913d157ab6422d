#!/usr/bin/env bash
# An embedder's own package (Tests/Embedding/Package.swift, depending on
# this repository by path) builds (1) a playback-only program on product `BackendCore` that links
# no door library (Xlib, libsoup, GUPnP…), and (2) README.md's "Embedding the Backend" example, unchanged, on product `Backend`.
# (3) Sources/ExampleSocketPlayer, copied, on products `Backend` and `BackendControl` (public API only).
# Neither links a door library; both link GStreamer (that proves the `ldd` check reads real output).
# Run by `make check-embedding`; SWIFT overrides the toolchain's `swift`.
set -euo pipefail
cd "$(dirname "$0")"
SWIFT=${SWIFT:-swift}

# The README's first Swift block after the heading, copied as it is.
mkdir -p ReadmeExample
awk '/^## Embedding the Backend/ { section = 1; next }
     section && /^```swift/ { inside = 1; next }
     inside && /^```/ { exit }
     inside { print }' ../../README.md > ReadmeExample/main.swift.new
[ -s ReadmeExample/main.swift.new ] || { echo "check-embedding: no Swift block under '## Embedding the Backend' in README.md"; exit 1; }
# Rewritten only when it changed, so a warm build stays a no-op.
cmp -s ReadmeExample/main.swift.new ReadmeExample/main.swift 2>/dev/null \
    || mv ReadmeExample/main.swift.new ReadmeExample/main.swift
rm -f ReadmeExample/main.swift.new

# Sources/ExampleSocketPlayer as an embedder's own program: it must build on the products alone.
mkdir -p SocketExample
cmp -s ../../Sources/ExampleSocketPlayer/main.swift SocketExample/main.swift 2>/dev/null \
    || cp ../../Sources/ExampleSocketPlayer/main.swift SocketExample/main.swift

# SwiftPM does not re-plan a path dependency whose files moved (only its contents changed): when
# the parent package's list of source files changes, drop the cached build plan (not the objects).
fingerprint=$(cd ../.. && find Sources Modules Package.swift -type f | LC_ALL=C sort | cksum)
if [ "$(cat .build/parent-files 2>/dev/null)" != "$fingerprint" ]; then
    rm -f .build/debug.yaml .build/*/debug/description.json
fi
if ! out=$("$SWIFT" build 2>&1); then
    echo "$out" | grep -vE "prohibited flag" ; echo "check-embedding: the embedding package did not build"; exit 1
fi
mkdir -p .build && echo "$fingerprint" > .build/parent-files
bin=$("$SWIFT" build --show-bin-path)
for product in CoreOnly ReadmeExample SocketExample; do
    [ -x "$bin/$product" ] || { echo "check-embedding: $product did not build"; exit 1; }
done

# ldd's output is read whole first: `ldd | grep -q` under pipefail fails when grep stops early.
# The door libraries (docs/ADR-004-door-libraries.md) are opened by the first call of one of their
# functions, never linked: neither the playback-only program nor the README example (product
# Backend: the window, casting, the cache) names one. Both must name GStreamer: that proves the
# ldd check reads real output and can fail.
door_libraries='lib(X11|Xss|Xfixes|soup-[23]|gupnp|gssdp|xml2|icu[a-z]*|krb5|gssapi[a-z_]*)\.so'
for product in CoreOnly ReadmeExample; do
    libraries=$(ldd "$bin/$product")
    if ! grep -q 'libgstreamer-1\.0\.so' <<<"$libraries"; then
        echo "check-embedding: $product links no libgstreamer-1.0: the ldd check proves nothing"; exit 1
    fi
    if grep -qE "$door_libraries" <<<"$libraries"; then
        echo "check-embedding: $product links a door library:"; grep -E "$door_libraries" <<<"$libraries"; exit 1
    fi
done
# The playback-only program really plays: it prerolls a fixture headless and reports its duration.
played=$(timeout 60 "$bin/CoreOnly" ../../Fixtures/h264-aac-10s.mp4)
echo "$played" >&2
grep -q '^duration: ' <<<"$played" || { echo "check-embedding: CoreOnly reported no duration"; exit 1; }
echo "check-embedding: CoreOnly and the README example link no door library (X11, libsoup, GUPnP, libxml2, …), CoreOnly plays; the README example builds unchanged against Backend; ExampleSocketPlayer builds on Backend + BackendControl"
