#!/bin/sh
# Build 118: rebuilds a tag index, slowly, saying how far it got.
. "$(dirname "$0")/common.sh"
read_notes "notes of 0.9 or later (id, title, date, tags)" 'NF != 4 || $1 !~ /^note-/ { refuse() }'
for step in 1 2 3 4 5; do
    echo "indexing: $((step * 20))%"
    sleep 0.2
done
cut -f4 "$notes" | tr ', ' '\n\n' | sort -u | sed '/^$/d' > "$data/index.txt"
echo "indexed $(wc -l < "$data/index.txt" | tr -d ' ') tags"
