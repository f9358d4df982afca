# Sourced by every script: sets $data, the folder of notes the migrations rewrite, and $notes.
#
# The notes live in data/ beside the manifest (made from seed/ on first use). When the explorer
# runs the commands against a sandbox (MIGRATION_SANDBOX=1: only the records are simulated),
# they work on scratch notes in data-sandbox/ instead, so the real notes stay as they are. The
# scratch notes are those of the device the sandbox plays: before a version migration runs, they
# are made anew as the seed with every change up to MIGRATION_FROM (the version the device last
# migrated to), unless they are that device's already; a build migration or a hook finds them as
# the run left them (or, when there are none yet, the seed with every change made).
set -eu
example="$(cd "$(dirname "$0")/.." && pwd)"
. "$example/scripts/changes.sh"
data="$example/data"
[ -d "$data" ] || { mkdir -p "$data"; cp "$example/seed/notes.tsv" "$data/"; }

# Makes $data the notes of a device that last migrated to version $1 ("": a fresh install,
# which has the seed's notes; "every": every change made), and writes that version in $data/device.
scratch_device() {
    rm -rf "$data"
    mkdir -p "$data"
    cp "$example/seed/notes.tsv" "$data/"
    while read -r version change; do
        if [ "$1" = every ] || { [ -n "$1" ] && [ "$(printf '%s\n%s\n' "$version" "$1" | sort -V | head -n 1)" = "$version" ]; }; then
            "$change"
        fi
    done <<CHANGES
$changes
CHANGES
    echo "$1" > "$data/device"
}

if [ "${MIGRATION_SANDBOX:-0}" = 1 ]; then
    data="$example/data-sandbox"
    notes="$data/notes.tsv"
    if [ -n "${MIGRATION_VERSION:-}" ]; then
        { [ -f "$data/device" ] && [ "$(cat "$data/device")" = "${MIGRATION_FROM:-}" ]; } || scratch_device "${MIGRATION_FROM:-}"
        # Once this migration has succeeded, the scratch notes are those of a device at its version.
        trap 'status=$?; [ "$status" -ne 0 ] || echo "$MIGRATION_VERSION" > "$data/device"; exit "$status"' EXIT
    else
        [ -f "$notes" ] || scratch_device every
    fi
fi
notes="$data/notes.tsv"
