#!/bin/sh
# On every app update: statistics start again.
. "$(dirname "$0")/common.sh"
echo "opened 0 times since $MIGRATION_TO" > "$data/stats.txt"
echo "statistics reset for $MIGRATION_TO"
