#!/bin/sh
# desktop-entry.sh GSTPLAY TEMPLATE: writes the desktop entry to stdout, TEMPLATE with its
# MimeType filled from `GSTPLAY mime-types` (the checked list in BackendControl's
# PlayableMIMETypes.swift, kept to the types whose demuxer or parser the installed GStreamer
# plugins have). Used by `make install`
# and by the launcher test (Tests/DisplayTests/DesktopEntryLaunchTests.swift).
set -eu
types=$("$1" mime-types | tr '\n' ';')
if [ -z "$types" ]; then echo "desktop-entry.sh: '$1 mime-types' printed nothing" >&2; exit 1; fi
sed "s|@MIME_TYPES@|$types|" "$2"
