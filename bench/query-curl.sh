#!/usr/bin/env bash
# One query the way a shell user would: curl for the week window, curl for the ranking, jq to print it.
#   bash bench/query-curl.sh URL KEY
set -euo pipefail
url=$1 key=$2
window=$(curl -sf -H "X-Api-Key: $key" "$url/api/data/weeks/current" | jq -r '"startWeek=\(.last4StartWeek)&endWeek=\(.currentWeek)"')
curl -sf -H "X-Api-Key: $key" "$url/api/data/people/top?$window" | jq .
