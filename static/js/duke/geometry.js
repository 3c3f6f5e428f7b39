// Squares of the 6x6 board and where they appear on screen.
// A square is named "a1".."f6": file a-f (x 0-5) left to right as Light sees it, rank 1-6 (y 0-5);
// rank 1 is Light's home row. The viewer's own home row is drawn at the bottom (a spectator sees
// Light's), so for Dark the board is turned half a turn.

export const FILES = "abcdef";
export const SIZE = 6;

export function parse(square) {
  return { x: FILES.indexOf(square[0]), y: Number(square.slice(1)) - 1 };
}

export function name(x, y) {
  return `${FILES[x]}${y + 1}`;
}

export function allSquares() {
  const out = [];
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) out.push(name(x, y));
  return out;
}

export function bottomSeat(viewer) {
  return viewer === "dark" ? "dark" : "light";
}

// Screen column and row (0-5, row 0 at the top) of a square for a board with `bottom` at the bottom.
export function toScreen(square, bottom) {
  const { x, y } = parse(square);
  return bottom === "dark" ? { col: SIZE - 1 - x, row: y } : { col: x, row: SIZE - 1 - y };
}

export function fromScreen(col, row, bottom) {
  return bottom === "dark" ? name(SIZE - 1 - col, row) : name(col, SIZE - 1 - row);
}

// The screen vector (y down) of a board facing "n" (toward rank 6), "e", "s" or "w".
export function facingVector(facing, bottom) {
  const v = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] }[facing];
  return bottom === "dark" ? [-v[0], -v[1]] : v;
}
