// The only C the package touches: ncursesw, plus inline accessors for what Swift cannot
// import (macros, globals, variadic calls).
#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

/* The wide-character API (cchar_t, setcchar, mvwadd_wch), asked for here rather than by
   pkg-config's Cflags, which the package does not use. */
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <stdio.h>
#include <string.h>
#include <curses.h>


static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline FILE *cn_stdin(void) { return stdin; }
/* Standard output written a line at a time, so that a crash loses no finished line. */
static inline void cn_line_buffer_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_color_pair(short pair) { return COLOR_PAIR(pair); }

int wcwidth(wchar_t ch);

/// Draws one cell at (y, x): a spacing character and up to CCHARW_MAX - 1 more. The cell is
/// filled directly, because setcchar stops at a second spacing character, and a ZWJ emoji
/// sequence must reach the terminal whole to be joined.
static inline int cn_put(int y, int x, const wchar_t *chars, int count, attr_t attrs, short pair) {
    cchar_t cell;
    wchar_t first[2] = { chars[0], 0 };
    setcchar(&cell, first, attrs, pair, NULL);
    for (int i = 1; i < count && i < CCHARW_MAX; i++) cell.chars[i] = chars[i];
    return mvwadd_wch(stdscr, y, x, &cell);
}

/// Whether the terminal can address the cursor (so full-screen drawing is possible).
static inline int cn_can_address_cursor(void) {
    const char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

/// Whether the current locale's character set is UTF-8.
static inline int cn_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}
#endif
