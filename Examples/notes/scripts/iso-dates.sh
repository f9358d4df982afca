#!/bin/sh
# 0.10: dates from DD/MM/YYYY to YYYY-MM-DD.
. "$(dirname "$0")/common.sh"
rewrite 'split($3, d, "/") == 3 { $3 = d[3] "-" d[2] "-" d[1] } { print }'
echo "dates now read like $(cut -f3 "$notes" | head -n 1)"
