#!/bin/sh
# 1.0: tags from "a b" to "a,b". Fails on purpose while the file fail-split-tags exists beside
# the manifest, to show a failed run (what ran before stays recorded; this one runs again).
. "$(dirname "$0")/common.sh"
if [ -e "$example/fail-split-tags" ]; then
    echo "split-tags: failing on purpose, because $example/fail-split-tags exists" >&2
    exit 3
fi
split_tags
echo "tags of the first note: $(cut -f4 "$notes" | head -n 1)"
