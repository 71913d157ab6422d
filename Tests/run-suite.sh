#!/usr/bin/env bash
# The test suite as `make test` runs it: one process per test, WORKERS at a time, the log and the
# xUnit results in RESULTS. Prints `N passed, N failed, N skipped`, then each failed test with its
# assertion lines.
#
# A test that failed in the parallel run is run once more, alone, when at most RETRY_LIMIT tests
# failed: most tests wait on real-time playback, and 8 processes on 2 cores now and then starve
# one past a timeout. A test that passes alone is listed as "flaky (passed alone)" — the run
# passes, and the list stays in the log for the next person to fix; one that fails again fails
# the run. More than RETRY_LIMIT failures are a broken build, not load: no retry.
#
# Usage: SWIFT=swift WORKERS=8 RESULTS=.build/test-results RETRY_LIMIT=5 bash Tests/run-suite.sh
set -uo pipefail
SWIFT=${SWIFT:-swift}
WORKERS=${WORKERS:-8}
RESULTS=${RESULTS:-.build/test-results}
RETRY_LIMIT=${RETRY_LIMIT:-5}

mkdir -p "$RESULTS"
rm -f "$RESULTS/xunit.xml" "$RESULTS/retry.log"
"$SWIFT" test --skip-build --parallel --num-workers "$WORKERS" --verbose --xunit-output "$RESULTS/xunit.xml" 2>&1 \
    | tee "$RESULTS/test.log"
status=$?

total=$(grep -o -m1 'tests="[0-9]*"' "$RESULTS/xunit.xml" 2>/dev/null | tr -dc 0-9)
failed=$(grep -o -m1 'failures="[0-9]*"' "$RESULTS/xunit.xml" 2>/dev/null | tr -dc 0-9)
skipped=$(grep -c "^Test Case '.*' skipped (" "$RESULTS/test.log")
if [ -z "$total" ] || [ -z "$failed" ]; then echo "test: no results in $RESULTS/xunit.xml"; exit 1; fi
echo "$((total - failed - skipped)) passed, $failed failed, $skipped skipped"
grep -h "^Test Case '.*' failed (\|^\(/.*\.swift:[0-9]*\|<EXPR>:0\): error: " "$RESULTS/test.log" | sed 's/^/failed: /' | tail -40

[ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && exit 0
[ "$failed" -gt 0 ] && [ "$failed" -le "$RETRY_LIMIT" ] || exit 1

# The failed tests as `Module.Class/test` (the xUnit file names the module in the class name).
mapfile -t names < <(python3 - "$RESULTS/xunit.xml" <<'EOF'
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if case.find("failure") is not None or case.find("error") is not None:
        print(f'{case.get("classname")}/{case.get("name")}')
EOF
)
[ "${#names[@]}" -eq "$failed" ] || { echo "test: $failed failed but ${#names[@]} named in the xUnit file"; exit 1; }
flaky=()
for name in "${names[@]}"; do
    echo "retrying alone: $name" | tee -a "$RESULTS/retry.log"
    if "$SWIFT" test --skip-build --filter "^${name}\$" >>"$RESULTS/retry.log" 2>&1; then
        flaky+=("$name")
    else
        echo "failed again alone: $name (output in $RESULTS/retry.log)"
        exit 1
    fi
done
for name in "${flaky[@]}"; do echo "flaky (passed alone): $name"; done
exit 0
