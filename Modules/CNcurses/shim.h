#ifndef BIRD_CNCURSES_SHIM_H
#define BIRD_CNCURSES_SHIM_H
// ncursesw for Swift 6: SwiftPM drops pkg-config's -D flags, so define the wide-char switches
// here, and expose the globals and macros Swift cannot import as inline functions.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

static inline WINDOW *bird_stdscr(void) { return stdscr; }
static inline int bird_COLS(void) { return COLS; }
static inline int bird_LINES(void) { return LINES; }
static inline int bird_COLORS(void) { return COLORS; }
static inline void bird_set_escdelay(int ms) { set_escdelay(ms); }
static inline attr_t bird_A_BOLD(void) { return A_BOLD; }
static inline attr_t bird_A_REVERSE(void) { return A_REVERSE; }
static inline attr_t bird_A_DIM(void) { return A_DIM; }
static inline attr_t bird_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline attr_t bird_A_NORMAL(void) { return A_NORMAL; }
static inline attr_t bird_COLOR_PAIR(int n) { return COLOR_PAIR(n); }
static inline int bird_KEY_F(int n) { return KEY_F(n); }
// wcwidth is only declared under _XOPEN_SOURCE; declare it here (glibc always provides it) so the
// backend can check that the terminal library agrees with the inspector's own width table.
extern int wcwidth(wchar_t c);
static inline int bird_wcwidth(wchar_t c) { return wcwidth(c); }
// Mouse: clicks of the first button and the wheel (buttons 4 and 5), reported at once
// (mouseinterval 0: no click-detection delay). `bird_mouse_on(0)` turns reporting off.
static inline void bird_mouse_on(int on) {
    mousemask(on ? (BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0, NULL);
    mouseinterval(0);
}
// The last mouse event: 1 first button pressed, 2 wheel up, 3 wheel down, 0 anything else or
// nothing to read; its cell in *x, *y.
static inline int bird_mouse_read(int *x, int *y) {
    MEVENT e;
    if (getmouse(&e) != OK) return 0;
    *x = e.x;
    *y = e.y;
    if (e.bstate & BUTTON1_PRESSED) return 1;
    if (e.bstate & BUTTON4_PRESSED) return 2;
    if (e.bstate & BUTTON5_PRESSED) return 3;
    return 0;
}
#endif
