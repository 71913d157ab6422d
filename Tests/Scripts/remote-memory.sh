#!/usr/bin/env bash
# By hand (docs/ADR-002-remote-http.md, docs/BENCHMARKS.md): the resident memory of
# gstplay playing a fixture without --remote, with --remote idle, and with 20 WebSocket clients
# connected (19 reading, 1 stalled: remote_clients.py crowd). Prints VmRSS in KiB, RUNS times each.
#   Tests/Scripts/remote-memory.sh path/to/gstplay [RUNS]
set -euo pipefail
gstplay=$1; runs=${2:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
python=$root/.build/test-venv/bin/python3
clip=$root/Fixtures/h264-aac-10s.mp4
rss() { awk '/^VmRSS/ {print $2}' /proc/$1/status; }
for run in $(seq "$runs"); do
  "$gstplay" --json --loop "$clip" >/dev/null 2>&1 & pid=$!
  sleep 3; plain=$(rss $pid); kill $pid; wait $pid 2>/dev/null || true
  err=$(mktemp)
  "$gstplay" --json --loop --remote=0 "$clip" >/dev/null 2>"$err" & pid=$!
  sleep 3; idle=$(rss $pid)
  url=$(grep -o 'http://[^ ]*' "$err"); base=${url%%/#*}; token=${url##*token=}
  "$python" "$root/Tests/Scripts/remote_clients.py" crowd "$base" --token "$token" --clients 20 --seconds 4 >/dev/null &
  client=$!
  sleep 2; crowd=$(rss $pid)
  wait $client || true
  kill $pid; wait $pid 2>/dev/null || true; rm -f "$err"
  echo "run $run: without --remote $plain KiB, --remote idle $idle KiB, 20 clients $crowd KiB"
done
