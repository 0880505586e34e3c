// fairysolve serve: code shared by the pages — placements, board drawing and editing,
// the palette of men, calls to the server, copying to the clipboard.
'use strict';

const FILES = 'abcdefgh';

// Filled glyphs for both colours: CSS colours them (white men get a dark outline), so
// a man reads the same on light and dark squares. U+FE0E asks for the text form, not an emoji.
const GLYPH = {
  K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F',
};
const PIECE_WORD = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const MEN = ['K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p'];

/** Square name of 0-based file and rank. */
function sqName(file, rank) {
  return FILES[file] + (rank + 1);
}

/** 0-based [file, rank] of a square name, or null. */
function sqParse(name) {
  const m = /^([a-h])([1-8])$/.exec(name || '');
  return m ? [FILES.indexOf(m[1]), Number(m[2]) - 1] : null;
}

/** An empty placement: 64 entries indexed rank * 8 + file, '' for an empty square. */
function emptyPlacement() {
  return new Array(64).fill('');
}

/** Reads a FEN placement; throws an Error in words when it is not one. */
function parsePlacement(text) {
  const rows = String(text).trim().split('/');
  if (rows.length !== 8) throw new Error('a placement has 8 ranks, this has ' + rows.length);
  const board = emptyPlacement();
  rows.forEach((row, i) => {
    const rank = 7 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) {
        file += Number(ch);
      } else if (/[KQRBNPkqrbnp]/.test(ch)) {
        if (file < 8) board[rank * 8 + file] = ch;
        file += 1;
      } else {
        throw new Error(`rank ${rank + 1}: "${ch}" is not a man`);
      }
    }
    if (file !== 8) throw new Error(`rank ${rank + 1} has ${file} squares`);
  });
  return board;
}

/** Writes a placement as FEN. */
function placementToString(board) {
  const rows = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let gap = 0;
    for (let file = 0; file < 8; file++) {
      const man = board[rank * 8 + file];
      if (man) {
        if (gap) row += gap;
        gap = 0;
        row += man;
      } else {
        gap += 1;
      }
    }
    if (gap) row += gap;
    rows.push(row);
  }
  return rows.join('/');
}

/** "a white queen" for "Q". */
function manWords(letter, article = 'a') {
  if (!letter) return '';
  const colour = letter === letter.toUpperCase() ? 'white' : 'black';
  const word = PIECE_WORD[letter.toLowerCase()] || letter;
  return (article ? article + ' ' : '') + colour + ' ' + word;
}

/** A DOM element for one man. */
function manElement(letter) {
  const span = document.createElement('span');
  const white = letter === letter.toUpperCase();
  span.className = 'man ' + (white ? 'w' : 'b');
  span.textContent = GLYPH[letter.toUpperCase()] + '\uFE0E';
  span.title = manWords(letter, '');
  return span;
}

/** Small DOM builder: el('div', {class: 'x'}, 'text', child, ...). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/**
 * One board drawn as a grid of cells.
 * opts: flipped (seen from Black's side), quake ({dx, dy} or null: draw the Earthquake
 * board as it lies), names (square names in the cells), onClick(square), readonly,
 * cell (cell size in px).
 */
class BoardView {
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = opts;
    this.placement = emptyPlacement();
    this.selected = null;
    this.marks = new Set();
  }

  set(placement) {
    this.placement = placement;
    this.render();
  }

  select(square) {
    this.selected = square;
    this.render();
  }

  /** Where each square lies: [x, y] physical cell, and which cells show which square. */
  layout() {
    const q = this.opts.quake;
    const dx = q ? q.dx : 0;
    const dy = q ? q.dy : 0;
    const pos = (f, r) => (r >= 4 ? [f, r] : [f + dx, r + dy]);
    const cells = new Map();
    // Upper half first, then the lower half, which lies on top where they overlap.
    for (const half of [[4, 7], [0, 3]]) {
      for (let r = half[0]; r <= half[1]; r++) {
        for (let f = 0; f < 8; f++) {
          const [x, y] = pos(f, r);
          cells.set(x + ',' + y, [f, r]);
        }
      }
    }
    const minX = Math.min(0, dx);
    const maxX = Math.max(7, dx + 7);
    const minY = Math.min(4, dy);
    const maxY = Math.max(7, dy + 3);
    return { cells, minX, maxX, minY, maxY };
  }

  /** Squares that exist on this board (an Earthquake overlap hides some). */
  visibleSquares() {
    const set = new Set();
    for (const [f, r] of this.layout().cells.values()) set.add(sqName(f, r));
    return set;
  }

  render() {
    const { cells, minX, maxX, minY, maxY } = this.layout();
    const quake = !!this.opts.quake;
    const flipped = !!this.opts.flipped;
    const width = maxX - minX + 1;
    const height = maxY - minY + 1;
    const grid = el('div', { class: 'board' + (this.opts.readonly ? ' readonly' : '') });
    if (this.opts.cell) grid.style.setProperty('--cell', this.opts.cell + 'px');
    // Edge labels only on a plain board; a displaced board names every square instead.
    const edges = !quake;
    const cols = width + (edges ? 1 : 0);
    grid.style.gridTemplateColumns = `repeat(${cols}, auto)`;

    for (let row = 0; row < height; row++) {
      const y = flipped ? minY + row : maxY - row;
      if (edges) grid.append(el('div', { class: 'edge', style: 'width:16px' }, String(y + 1)));
      for (let col = 0; col < width; col++) {
        const x = flipped ? maxX - col : minX + col;
        const at = cells.get(x + ',' + y);
        if (!at) {
          grid.append(el('div', { class: 'cell void' }));
          continue;
        }
        const [f, r] = at;
        const name = sqName(f, r);
        const cell = el('div', {
          class: 'cell sq ' + ((f + r) % 2 === 0 ? 'dark' : 'light'),
          'data-square': name,
          title: name,
        });
        if (this.selected === name) cell.classList.add('selected');
        if (this.marks.has(name)) cell.classList.add('mark');
        if (quake || this.opts.names) cell.append(el('span', { class: 'name' }, name));
        const man = this.placement[r * 8 + f];
        if (man) cell.append(manElement(man));
        if (this.opts.onClick && !this.opts.readonly) {
          cell.addEventListener('click', () => this.opts.onClick(name));
        }
        grid.append(cell);
      }
    }
    if (edges) {
      grid.append(el('div', { class: 'edge' }));
      for (let col = 0; col < width; col++) {
        const x = flipped ? maxX - col : minX + col;
        grid.append(el('div', { class: 'edge', style: 'height:16px' }, FILES[x] || ''));
      }
    }
    this.container.replaceChildren(grid);
  }
}

/** Reads and sets a man on a placement by square name. */
function manAt(placement, square) {
  const p = sqParse(square);
  return p ? placement[p[1] * 8 + p[0]] : '';
}
function putMan(placement, square, man) {
  const p = sqParse(square);
  if (p) placement[p[1] * 8 + p[0]] = man || '';
}

/**
 * The palette of the 12 men and an eraser. onChange(selection) with a letter or ''
 * for the eraser.
 */
class Palette {
  constructor(container, onChange) {
    this.container = container;
    this.selection = 'P';
    this.onChange = onChange || (() => {});
    this.render();
  }

  render() {
    const box = el('div', { class: 'palette', role: 'toolbar', 'aria-label': 'men' });
    for (const m of MEN) {
      const b = el('button', { type: 'button', title: manWords(m, ''), class: m === this.selection ? 'active' : '' },
        manElement(m));
      b.addEventListener('click', () => this.choose(m));
      box.append(b);
    }
    const eraser = el('button', { type: 'button', class: 'eraser' + (this.selection === '' ? ' active' : ''),
      title: 'remove a man' }, 'erase');
    eraser.addEventListener('click', () => this.choose(''));
    box.append(eraser);
    this.container.replaceChildren(box);
  }

  choose(m) {
    this.selection = m;
    this.render();
    this.onChange(m);
  }

  /** What a click on a square holding `current` should leave there: the selected man,
   *  or nothing when the same man is clicked again (or with the eraser). */
  apply(current) {
    if (this.selection === '' || current === this.selection) return '';
    return this.selection;
  }
}

/**
 * Calls the server. Resolves to {ok, status, data}; a failure to reach the server or a
 * body that is not JSON becomes data.error, so callers show every failure the same way.
 */
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    return { ok: false, status: 0, data: { error: 'cannot reach the server (' + e.message + ')', field: null } };
  }
  let data = null;
  const text = await response.text();
  try {
    data = text ? JSON.parse(text) : {};
  } catch (e) {
    data = { error: text.trim() || response.statusText || ('HTTP ' + response.status), field: null };
  }
  if (!response.ok && (data === null || typeof data !== 'object' || !data.error)) {
    data = { error: 'HTTP ' + response.status + ' ' + response.statusText, field: null };
  }
  return { ok: response.ok, status: response.status, data };
}

/** Copies text; falls back to a hidden textarea where the clipboard API is refused
 *  (it needs a secure context: http on another machine's address is not one). */
async function copyText(text, button) {
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      ok = true;
    }
  } catch (e) { ok = false; }
  if (!ok) {
    const ta = el('textarea', { style: 'position:fixed;left:-1000px;top:0' });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    ta.remove();
  }
  if (button) {
    const old = button.textContent;
    button.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => { button.textContent = old; }, 1200);
  }
  return ok;
}

/** Runs fn once `ms` after the last call. */
function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** "White" / "Black" for "w" / "b". */
function colourName(c) {
  return c === 'w' || c === 'white' ? 'White' : c === 'b' || c === 'black' ? 'Black' : String(c);
}
