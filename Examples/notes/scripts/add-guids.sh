#!/bin/sh
# 0.9: gives every note an id in a first column.
. "$(dirname "$0")/common.sh"
add_guids
echo "gave $(wc -l < "$notes" | tr -d ' ') notes an id in $data"
