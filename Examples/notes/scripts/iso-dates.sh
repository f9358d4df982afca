#!/bin/sh
# 0.10: dates from DD/MM/YYYY to YYYY-MM-DD.
. "$(dirname "$0")/common.sh"
iso_dates
echo "dates now read like $(cut -f3 "$notes" | head -n 1)"
