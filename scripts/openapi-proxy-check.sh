#!/usr/bin/env bash
# Runs the kit against the fake through Stoplight Prism, an OpenAPI validation proxy nobody here
# wrote, and counts the response violations it reports (request violations are expected: the kit
# sends bad input on purpose). Not part of npm test: it downloads Prism with npx.
#   bash scripts/openapi-proxy-check.sh [area ...]     (default: every area but errors, see below)
# Prism 5 crashes on some malformed JSON bodies (its own logger), which the errors area sends, so
# each area runs behind a fresh proxy.
set -uo pipefail
cd "$(dirname "$0")/.."
AREAS=("$@")
[ ${#AREAS[@]} -eq 0 ] && AREAS=(attachments auth collections conventions headers membership notes permissions quota)
npm run build >/dev/null
WORK=$(mktemp -d)
node bin/notes-conformance.js fake --port 8093 --token proxy-token-1 --token proxy-token-2 --admin-token proxy-admin-token >"$WORK/fake.log" 2>&1 &
FAKE=$!
trap 'kill $FAKE 2>/dev/null; rm -rf "$WORK"' EXIT
total=0
for area in "${AREAS[@]}"; do
  npx -y @stoplight/prism-cli@5 proxy spec/openapi.yaml http://127.0.0.1:8093 --port 4011 --errors=false >"$WORK/prism-$area.log" 2>&1 &
  PRISM=$!
  for _ in $(seq 1 60); do grep -q "Prism is listening" "$WORK/prism-$area.log" && break; sleep 1; done
  node bin/notes-conformance.js --target http://127.0.0.1:4011 --token proxy-token-1 --secondary-token proxy-token-2 \
    --fixtures-token proxy-admin-token --profile spec/profiles/fake.yaml --requests-per-second 300 --request-budget 20000 \
    --only "$area" >"$WORK/kit-$area.log" 2>&1
  kit=$?
  kill $PRISM 2>/dev/null; wait $PRISM 2>/dev/null
  n=$(grep -c 'Violation: response' "$WORK/prism-$area.log")
  total=$((total + n))
  echo "$area: kit exit $kit, $n response violation(s); $(grep -m1 -E '^notes-conformance: (PASS|FAIL)' "$WORK/kit-$area.log")"
  grep 'Violation: response' "$WORK/prism-$area.log" | sed 's/.*Violation/  Violation/' | sort | uniq -c
done
echo "response violations: $total"
[ "$total" -eq 0 ]
