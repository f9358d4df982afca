# Sourced by every script: sets $data, the folder of notes the migrations rewrite.
#
# The notes live in data/ beside the manifest (made from seed/ on first use). When the explorer
# runs the commands against a sandbox (MIGRATION_SANDBOX=1: only the records are simulated),
# they work on a scratch copy in data-sandbox/ instead, so the real notes stay as they are.
set -eu
example="$(cd "$(dirname "$0")/.." && pwd)"
data="$example/data"
[ -d "$data" ] || { mkdir -p "$data"; cp "$example/seed/notes.tsv" "$data/"; }
if [ "${MIGRATION_SANDBOX:-0}" = 1 ]; then
    [ -d "$example/data-sandbox" ] || cp -R "$data" "$example/data-sandbox"
    data="$example/data-sandbox"
fi
notes="$data/notes.tsv"

# Replaces the notes with what awk makes of them (all or nothing).
rewrite() {
    awk -F '\t' -v OFS='\t' "$1" "$notes" > "$notes.new"
    mv "$notes.new" "$notes"
}
