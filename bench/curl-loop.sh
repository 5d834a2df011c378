#!/usr/bin/env bash
# The script a user writes today: rank once, then one country-stats request per person, in sequence.
#   bash bench/curl-loop.sh URL KEY START END TOP
set -euo pipefail
url=$1 key=$2 start=$3 end=$4 top=$5
curl -sf -H "X-Api-Key: $key" "$url/api/data/people/top?startWeek=$start&endWeek=$end&limit=$top" |
  grep -o '"personHash":"[^"]*"' | cut -d'"' -f4 |
  while read -r hash; do
    curl -sf -H "X-Api-Key: $key" "$url/api/data/people/$hash/country-stats?startWeek=$start&endWeek=$end"
    echo
  done
