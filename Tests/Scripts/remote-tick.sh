#!/usr/bin/env bash
# By hand (docs/BENCHMARKS.md "Web remote"): the player tick (250 ms `position` events) over
# 20 s without clients and with 20 WebSocket clients (19 reading, 1 stalled), p99 |interval - 250 ms|
# from the media positions on stdout (steady ticks only).  Tests/Scripts/remote-tick.sh path/to/gstplay
set -e
G=$(realpath "$1"); PY=.build/test-venv/bin/python3; cd "$(dirname "$0")/../.."
for mode in none crowd; do
  $G --json --loop --remote=0 Fixtures/h264-aac-10s.mp4 > /tmp/tick-$mode.out 2> /tmp/tick-$mode.err & pid=$!
  sleep 2; url=$(grep -o 'http://[^ ]*' /tmp/tick-$mode.err); base=${url%%/#*}; token=${url##*token=}
  start=$(wc -l < /tmp/tick-$mode.out)
  if [ $mode = crowd ]; then $PY Tests/Scripts/remote_clients.py crowd $base --token $token --clients 20 --seconds 20 > /tmp/tick-crowd.json; else sleep 21; fi
  kill $pid; wait $pid 2>/dev/null || true
  $PY - /tmp/tick-$mode.out $start $mode <<'PY'
import json,sys
lines=open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]
pos=[json.loads(l)["position"] for l in lines if '"event":"position"' in l]
dev=sorted(abs((b-a)*1000-250) for a,b in zip(pos,pos[1:]) if a>=0.5 and b>a and b<=9.5)
p99=dev[min(len(dev)-1, -(-len(dev)*99//100)-1)]
print(f"{sys.argv[3]}: {len(dev)} intervals, p99 |dev| {p99:.1f} ms, max {dev[-1]:.1f} ms, >5 ms: {sum(d>5 for d in dev)}")
PY
done
$PY -c "
import json; d=json.load(open('/tmp/tick-crowd.json')); g=sorted(abs(x-250) for x in d['arrival_gaps_ms'][1:]); print('reader arrival gaps:',len(g),'p99 |dev|',g[min(len(g)-1,-(-len(g)*99//100)-1)],'max',g[-1],'stalled_ended',d['stalled_ended'],'min count',min(d['counts']))"
grep dropped /tmp/tick-crowd.err | cut -c1-200
