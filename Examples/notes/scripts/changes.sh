# Sourced by common.sh: what each migration does to the notes, one function a version, and the
# versions in order. The migrations' scripts call them on the notes; a sandbox's scratch notes
# are the seed with every change up to the device's version made (common.sh).
#
# Each change checks that the notes are shaped as it expects, and fails saying what it found
# otherwise, rather than report success for a rewrite that changed nothing.
changes="0.9 add_guids
0.10 iso_dates
1.0 split_tags"

# 0.9: every note gets an id in a first column (one that has it already keeps it, so that the
# change can run again after a crash).
add_guids() {
    rewrite "0.8 notes (title, date, tags) or 0.9 ones (id, title, date, tags)" \
        'NF == 4 && $1 ~ /^note-/ { print; next } NF == 3 { print "note-" NR, $0; next } { refuse() }'
}

# 0.10: dates from DD/MM/YYYY to YYYY-MM-DD.
iso_dates() {
    rewrite "0.9 notes (id, title, date, tags), dated DD/MM/YYYY or YYYY-MM-DD" \
        'NF != 4 || $1 !~ /^note-/ { refuse() }
         split($3, d, "/") == 3 { $3 = d[3] "-" d[2] "-" d[1] }
         $3 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/ { refuse() }
         { print }'
}

# 1.0: tags from "a b" to "a,b".
split_tags() {
    rewrite "0.10 notes (id, title, date as YYYY-MM-DD, tags)" \
        'NF != 4 || $1 !~ /^note-/ || $3 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/ { refuse() }
         { gsub(/ +/, ",", $4); print }'
}

# Runs the awk program over the notes, tab-separated. The program calls refuse() on a line that
# is not one of `expected` ($1): awk stops there, saying which line and why, and fails (65).
read_notes() {
    awk -F '\t' -v OFS='\t' -v expected="$1" '
        function refuse() {
            printf "%s: line %d is not one of the %s: %s\n", FILENAME, FNR, expected, $0 > "/dev/stderr"
            exit 65
        }
        '"$2" "$notes"
}

# Replaces the notes with what read_notes makes of them, all or nothing: a refused line leaves
# them as they were, and the script fails.
rewrite() {
    read_notes "$1" "$2" > "$notes.new" || { status=$?; rm -f "$notes.new"; exit "$status"; }
    mv "$notes.new" "$notes"
}
