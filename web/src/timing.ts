// The performance marks the page sets for its timing to be read from outside (the browser
// test's time to first board, docs/web.md), named once here for the page and the test.

/** Set when the game view first draws a game's position (its startTime counts from navigation). */
export const FIRST_BOARD = "chessd:first-board";
