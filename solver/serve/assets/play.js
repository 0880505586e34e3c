// fairysolve serve: one player's page of a Looking-Glass game. The player sees only his
// own board (White the Real, Black the Mirror), orders moves, and keeps private notes of
// the other board on a scratch board that never leaves this browser.
'use strict';

const $ = (id) => document.getElementById(id);

// The link is /play/{game}/{token}: the token is the player's key to the game.
const [, , GAME, TOKEN] = location.pathname.split('/').map(decodeURIComponent);
const API = `/api/play/${encodeURIComponent(GAME)}/${encodeURIComponent(TOKEN)}`;
const STORE = `fairysolve.scratch.${GAME}.${TOKEN}`;
const BOARD_WORD = { R: 'Real', M: 'Mirror' };

let view = null;        // the last state the server sent
let viewText = '';      // the same as text, to redraw only on change
let selected = null;    // from-square picked on the own board
let scratchFrom = null; // from-square picked on the scratch board in order mode
let pollTimer = null;
let sending = false;

const own = new BoardView($('own'), { onClick: ownClick });
const scratch = new BoardView($('scratch'), { onClick: scratchClick, cell: 40 });
const scratchPalette = new Palette($('scratch-palette'));

// ---- Who is who ---------------------------------------------------------------------

const me = () => (view ? view.color : 'w');
const opp = () => (me() === 'w' ? 'b' : 'w');
const ownBoard = () => (view ? view.board_name : 'R');
const otherBoard = () => (ownBoard() === 'R' ? 'M' : 'R');
const isMine = (man) => !!man && (man === man.toUpperCase()) === (me() === 'w');

// ---- The scratch board (localStorage) -------------------------------------------------

/** The notes: placement, and how far the referee's answers have been noted. */
let notes = loadNotes();

function loadNotes() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && typeof saved.placement === 'string') {
      return {
        placement: parsePlacement(saved.placement),
        lastN: saved.lastN ?? null,
        prevBoard: saved.prevBoard || null,
        auto: saved.auto !== false,
      };
    }
  } catch (e) { /* notes that cannot be read start afresh */ }
  return { placement: null, lastN: null, prevBoard: null, auto: true };
}

function saveNotes() {
  try {
    localStorage.setItem(STORE, JSON.stringify({
      placement: placementToString(notes.placement),
      lastN: notes.lastN,
      prevBoard: notes.prevBoard,
      auto: notes.auto,
    }));
  } catch (e) { /* private browsing may refuse storage: the notes last for the page */ }
}

/** What is known of the other board at the start: the opponent's pawns on their
 *  second rank (each army starts on ranks 1-2 of its own board, rules.md 5.1). */
function startingPawns() {
  return parsePlacement(me() === 'w' ? '8/pppppppp/8/8/8/8/8/8' : '8/8/8/8/8/8/PPPPPPPP/8');
}

function scratchMode() {
  return document.querySelector('input[name=scratch-mode]:checked').value;
}

function scratchClick(square) {
  if (scratchMode() === 'notes') {
    putMan(notes.placement, square, scratchPalette.apply(manAt(notes.placement, square)));
    saveNotes();
    drawScratch();
    return;
  }
  // Order mode: from-square, then to-square, sent as an order on the other board.
  if (!scratchFrom) {
    scratchFrom = square;
  } else if (scratchFrom === square) {
    scratchFrom = null;
  } else {
    const from = scratchFrom;
    scratchFrom = null;
    const man = manAt(notes.placement, from);
    const promo = promotionLetter(man, square);
    if (promo !== null) sendOrder(`${otherBoard()}:${from}${square}${promo}`);
  }
  drawScratch();
}

function drawScratch() {
  scratch.opts.flipped = me() === 'b';
  scratch.selected = scratchFrom;
  scratch.set(notes.placement);
}

// ---- Ordering on the own board ----------------------------------------------------------

/** '' for no promotion, the letter asked for when a pawn of mine reaches its last rank,
 *  or null when the player cancels the question. */
function promotionLetter(man, to) {
  if (!man || man.toLowerCase() !== 'p' || !isMine(man)) return '';
  const last = me() === 'w' ? '8' : '1';
  if (to[1] !== last) return '';
  for (;;) {
    const answer = prompt('Promote to: q (queen), r (rook), b (bishop) or n (knight)?', 'q');
    if (answer === null) return null;
    const letter = answer.trim().toLowerCase();
    if (/^[qrbn]$/.test(letter)) return letter;
  }
}

function ownClick(square) {
  if (!view || view.over) return;
  const board = parsePlacement(view.board);
  const man = manAt(board, square);
  if (!selected) {
    if (isMine(man)) selected = square;
    own.select(selected);
    return;
  }
  if (selected === square) {
    selected = null;
    own.select(null);
    return;
  }
  const mover = manAt(board, selected);
  // Another man of mine: choose it instead, except the king taking its own rook, which
  // is how castling is ordered.
  const castling = mover && mover.toLowerCase() === 'k' && man && man.toLowerCase() === 'r' && isMine(man);
  if (isMine(man) && !castling) {
    selected = square;
    own.select(selected);
    return;
  }
  const from = selected;
  selected = null;
  own.select(null);
  const promo = promotionLetter(mover, square);
  if (promo !== null) sendOrder(`${ownBoard()}:${from}${square}${promo}`);
}

async function sendOrder(text) {
  text = String(text || '').trim();
  if (!text || sending) return;
  sending = true;
  $('err-order').textContent = '';
  const r = await api('POST', `${API}/order`, { order: text });
  sending = false;
  if (!r.ok) {
    const col = r.data.column;
    $('err-order').textContent = r.data.error + (Number.isInteger(col) ? ` (column ${col})` : '');
    return;
  }
  $('order').value = '';
  const answer = r.data.answer;
  // A strike is an answer, not an error: it is said here and in the log.
  $('last-answer').textContent = answer ? 'Referee: ' + describe(answer) : '';
  applyState(r.data.state);
}

// ---- The state from the server -----------------------------------------------------------

async function poll() {
  clearTimeout(pollTimer);
  const r = await api('GET', API);
  if (r.ok) {
    $('err-load').textContent = '';
    applyState(r.data);
  } else {
    $('err-load').textContent = r.data.error;
    if (r.status === 404) return; // a wrong link stays wrong
  }
  if (!view || !view.over) pollTimer = setTimeout(poll, 1000);
}

function applyState(state) {
  if (!state || typeof state !== 'object') return;
  const text = JSON.stringify(state);
  if (text === viewText) return;
  const first = !view;
  view = state;
  viewText = text;
  if (first) setUp();
  noteAnswers();
  render();
}

/** Things fixed for the game: who this player is and which board he sees. */
function setUp() {
  const colour = colourName(me());
  const word = BOARD_WORD[ownBoard()];
  $('who').textContent = `You play ${colour} — you see the ${word} board`;
  document.title = `fairysolve — ${colour}, Looking-Glass game`;
  $('own-title').textContent = `${word} board (${ownBoard()}), yours`;
  $('scratch-title').textContent = `Scratch board: the ${BOARD_WORD[otherBoard()]} (${otherBoard()})`;
  $('ask-help').textContent = `Ask: whether you have any legal move on the ${BOARD_WORD[otherBoard()]} board.`;
  $('order').placeholder = me() === 'w' ? 'R:e2e4 or ask' : 'M:e7e5 or ask';
  own.opts.flipped = me() === 'b';
  if (!notes.placement) notes.placement = startingPawns();
  if (notes.lastN === null) {
    // Notes start here: what was said before this browser saw the game is not replayed.
    const log = view.log || [];
    notes.lastN = log.length ? log[log.length - 1].n : 0;
    notes.prevBoard = view.board;
  }
  $('scratch-auto').checked = notes.auto;
  saveNotes();
  drawScratch();
}

function render() {
  const v = view;
  own.marks = new Set();
  own.set(parsePlacement(v.board));

  // Whose turn, and what is awaited.
  const box = $('turn');
  const log = v.log || [];
  const last = log[log.length - 1];
  box.classList.remove('mine');
  if (v.over) {
    box.textContent = 'The game is over';
  } else if (v.to_pick && v.to_pick.length) {
    box.textContent = `Pick ${colourName(opp())}'s move`;
    box.classList.add('mine');
  } else if (last && last.result === 'forfeit' && last.reason && v.turn === me()) {
    box.textContent = `Waiting: ${colourName(opp())} picks your move`;
  } else if (v.turn === me()) {
    box.textContent = 'Your turn';
    box.classList.add('mine');
  } else {
    box.textContent = `${colourName(v.turn)} to move — waiting`;
  }
  const s = v.strikes || {};
  $('strikes').textContent = (v.forfeit ? 'Forfeit rule' : 'Strike rule')
    + (v.forfeit ? '' : ` · strikes: White ${s.w ?? 0}, Black ${s.b ?? 0}`);

  // Choices for the opponent's forfeited move.
  const pick = $('pick-choices');
  pick.replaceChildren();
  $('pick-box').hidden = !!v.over || !(v.to_pick && v.to_pick.length);
  $('pick-title').textContent = `${colourName(opp())}'s order could not be played: pick a move for ${colourName(opp())}:`;
  for (const choice of v.to_pick || []) {
    pick.append(el('button', { type: 'button', class: 'mono', onclick: () => sendOrder(`pick ${choice}`) }, choice));
  }

  for (const id of ['send', 'ask', 'order']) $(id).disabled = !!v.over;

  renderLog(log);
  renderOver(v);
}

function renderLog(log) {
  const list = $('log');
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren();
  if (!log.length) list.append(el('li', { class: 'muted' }, 'Nothing yet. White moves first.'));
  for (const entry of log) {
    const li = el('li', { class: entry.result === 'strike' ? 'strike' : '' },
      el('span', { class: 'n' }, `${entry.n ?? ''}.`), describe(entry));
    list.append(li);
  }
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function renderOver(v) {
  $('over').hidden = !v.over;
  if (!v.over) return;
  $('over-result').textContent = v.result || 'The game is over';
  const rev = v.reveal;
  if (rev) {
    const flip = me() === 'b';
    for (const [id, text] of [['reveal-real', rev.real], ['reveal-mirror', rev.mirror]]) {
      const b = new BoardView($(id), { readonly: true, flipped: flip, cell: 40 });
      try { b.set(parsePlacement(text)); } catch (e) { $(id).textContent = text; }
    }
    $('reveal-line').value = rev.line || '';
  }
}

// ---- The referee's answers in words ---------------------------------------------------------

/** "the white queen" from "Q". */
function theMan(letter) {
  return manWords(letter, 'the');
}

/** "nf6" → "nf6" as the referee lists it; kept short, as on a scoresheet. */
function toldText(t) {
  let s = `Told: ${theMan(t.piece)} arrived on ${t.square} (${BOARD_WORD[t.board] || t.board})`;
  const attacks = t.attacks || [];
  s += attacks.length ? ` and attacks ${attacks.join(', ')}` : ' and attacks nothing';
  if (t.front !== undefined) s += t.front === '.' ? '; the square in front of it is empty'
    : `; in front of it: ${manWords(t.front)}`;
  return s;
}

/** One answer of the referee as a sentence (for this player). */
function describe(e) {
  if (!e || typeof e !== 'object') return String(e);
  const I = me();
  const them = colourName(opp());
  switch (e.result) {
    case 'played': {
      const parts = [];
      // Only the mover is told where his man went (`passed`).
      const mine = e.passed !== undefined;
      if (mine) {
        let s = e.by === I ? `You played ${e.move}` : `${them} picked your move: ${e.move}`;
        if (e.partial) s += ' (cut short)';
        parts.push(s);
        for (const [sq, went] of Object.entries(e.passed || {})) {
          parts.push(went ? `${sq} passed through the glass` : `${sq} stayed on the ${BOARD_WORD[boardOf(e.move)] || 'same'} board`);
        }
      } else if (e.by === I) {
        parts.push(e.move ? `You picked ${them}'s move: ${e.move}` : `${them} played the move you picked`);
      } else if (e.move) {
        parts.push(`${them} moved on your board: ${e.move}`);
      } else {
        parts.push(`${them} moved on the board you cannot see`);
      }
      if (e.captured) parts.push(`captured: ${manWords(e.captured)}`);
      for (const t of e.told || []) parts.push(toldText(t));
      if (e.status === 'win') parts.push('the king is captured');
      if (e.status === 'draw') parts.push('no move on either board: draw');
      return parts.join('; ');
    }
    case 'strike': {
      let s = `Strike ${e.strikes} for ${colourName(e.color)}`;
      if (e.reason) s += ` (${e.reason})`;
      if (e.lost) s += ` — three strikes: ${colourName(e.color)} loses`;
      return s;
    }
    case 'forfeit':
      if (e.choices) return `${them}'s order could not be played: you pick ${them}'s move (${e.choices.length} choices)`;
      return `Your order could not be played${e.reason ? ` (${e.reason})` : ''}: ${them} picks your move`;
    case 'again':
      return e.reason ? `Order again (${e.reason}); no penalty` : `${them} orders again`;
    case 'answer':
      return `Answer: you have ${e.any_legal_move ? 'a legal move' : 'no legal move'} on ${e.board}`;
    default:
      return JSON.stringify(e);
  }
}

function boardOf(move) {
  const m = /^([RM]):/.exec(move || '');
  return m ? m[1] : null;
}

// ---- Notes from the referee's answers -------------------------------------------------------

/** Puts on the scratch board what the answers since the last look prove about the other
 *  board: where my own men went, and what a told arrival saw there. */
function noteAnswers() {
  if (notes.lastN === null || !notes.placement) return;
  const fresh = (view.log || []).filter((e) => typeof e.n === 'number' && e.n > notes.lastN);
  if (!fresh.length) return;
  for (const e of fresh) {
    if (notes.auto && e.result === 'played') noteMove(e);
    if (e.board) notes.prevBoard = e.board;
    notes.lastN = e.n;
  }
  saveNotes();
  drawScratch();
}

function noteMove(e) {
  const sheet = notes.placement;
  const m = /^([RM]):([a-h][1-8])([a-h][1-8])([qrbn]?)/.exec(e.move || '');
  if (m && e.passed) {
    const [, board, from, to, promo] = m;
    let man;
    if (board === ownBoard()) {
      // My man left my board: if it passed, it now stands on the other one.
      let before = null;
      try { before = notes.prevBoard ? parsePlacement(notes.prevBoard) : null; } catch (err) { before = null; }
      man = before ? manAt(before, from) : '';
      const target = before ? manAt(before, to) : '';
      const castled = man && man.toLowerCase() === 'k' && isMine(target);
      if (!castled && isMine(man)) {
        for (const [sq, went] of Object.entries(e.passed)) {
          if (went) putMan(sheet, sq, promo ? (me() === 'w' ? promo.toUpperCase() : promo) : man);
        }
      }
    } else {
      // My man moved on the other board: it leaves its square there, and stays on the
      // new one unless it passed to my board.
      man = manAt(sheet, from);
      if (isMine(man)) putMan(sheet, from, '');
      for (const [sq, went] of Object.entries(e.passed)) {
        if (went) putMan(sheet, sq, '');
        else if (isMine(man)) putMan(sheet, sq, promo ? (me() === 'w' ? promo.toUpperCase() : promo) : man);
      }
    }
  }
  // An arrival on the other board told to me: the man there and the men it attacks.
  for (const t of e.told || []) {
    if (t.board !== otherBoard()) continue;
    putMan(sheet, t.square, t.piece);
    for (const a of t.attacks || []) {
      const am = /^([kqrbnpKQRBNP])([a-h][1-8])$/.exec(a);
      if (am) putMan(sheet, am[2], am[1]);
    }
  }
}

// ---- Controls ----------------------------------------------------------------------------

$('send').addEventListener('click', () => sendOrder($('order').value));
$('order').addEventListener('keydown', (e) => { if (e.key === 'Enter') sendOrder($('order').value); });
$('ask').addEventListener('click', () => sendOrder('ask'));
$('copy-reveal').addEventListener('click', (e) => copyText($('reveal-line').value, e.currentTarget));
$('scratch-clear').addEventListener('click', () => {
  notes.placement = emptyPlacement();
  saveNotes();
  drawScratch();
});
$('scratch-pawns').addEventListener('click', () => {
  const pawns = startingPawns();
  pawns.forEach((m, i) => { if (m) notes.placement[i] = m; });
  saveNotes();
  drawScratch();
});
$('scratch-auto').addEventListener('change', (e) => {
  notes.auto = e.target.checked;
  saveNotes();
});
document.querySelectorAll('input[name=scratch-mode]').forEach((r) => r.addEventListener('change', () => {
  scratchFrom = null;
  drawScratch();
}));

poll();
