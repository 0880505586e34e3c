// fairysolve serve: the workbench. The composer sets up a position by clicking; the page
// builds the position line from the form, asks the server to read it back (diagram or
// located error), and runs solves as jobs that it polls.
'use strict';

const $ = (id) => document.getElementById(id);

const STANDARD = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
const UNDERWORLD_START = '4k3/8/8/8/8/8/8/4K3';
const GLASS_REAL_START = '8/8/8/8/8/8/PPPPPPPP/RNBQKBNR';
const GLASS_MIRROR_START = 'rnbqkbnr/pppppppp/8/8/8/8/8/8';

// Operations the form has controls for; every other operation of a line that was read
// is kept as it came and written back after them.
const FORM_OPS = new Set(['trapdoor', 'timers', 'trapdoor_order', 'taxi', 'taxi_income', 'earthquake',
  'void', 'aftershock', 'underworld', 'phase', 'reserve', 'homes', 'mirror', 'ep_board', 'stip', 'dm']);
// Operands that are always written in quotes (they are strings in the position format).
const QUOTED_OPS = new Set(['timers', 'taxi', 'earthquake', 'aftershock', 'underworld', 'reserve', 'homes',
  'mirror', 'stip', 'id', 'c0', 'c1', 'c2']);
// EPD move lists are written bare, as chess tools write them.
const MOVE_LIST_OPS = new Set(['bm', 'am', 'pv']);

// Where a server error about each field is shown.
const ERROR_TARGET = {
  placement: 'err-board1', underworld: 'err-board2', mirror: 'err-board2',
  turn: 'err-turn', castling: 'err-castling', ep: 'err-ep',
  trapdoor: 'err-trapdoor', timers: 'err-trapdoor', trapdoor_order: 'err-trapdoor',
  taxi: 'err-taxi', taxi_income: 'err-taxi',
  earthquake: 'err-quake', void: 'err-quake', aftershock: 'err-quake',
  phase: 'err-underworld', reserve: 'err-underworld', homes: 'err-underworld',
  ep_board: 'err-glass', stip: 'err-stip', dm: 'err-stip', line: 'err-line',
  tries: 'err-solve', set_play: 'err-solve', max_solutions: 'err-solve', time_limit: 'err-solve',
};

const state = {
  game: 'fide',
  main: emptyPlacement(),
  second: parsePlacement(UNDERWORLD_START),
  extra: [],          // operations kept from a line that was read
};

const palette = new Palette($('palette'));
const board1 = new BoardView($('board1'), { onClick: (sq) => editSquare(state.main, sq) });
const board2 = new BoardView($('board2'), { onClick: (sq) => editSquare(state.second, sq) });

function editSquare(placement, square) {
  putMan(placement, square, palette.apply(manAt(placement, square)));
  changed();
}

// ---- The form -------------------------------------------------------------------

function gameChoice() {
  return document.querySelector('input[name=game]:checked').value;
}

function setGame(game) {
  document.querySelector(`input[name=game][value=${game}]`).checked = true;
  state.game = game;
  layoutForGame();
}

/** Shows the controls of the chosen game; modifiers are for the single board only. */
function layoutForGame() {
  const g = state.game;
  $('modifiers').querySelectorAll('fieldset').forEach((f) => { f.disabled = g !== 'fide'; });
  $('uw-box').hidden = g !== 'underworld';
  $('lg-box').hidden = g !== 'glass';
  $('board2-wrap').hidden = g === 'fide';
  const titles = {
    fide: ['Board', ''],
    underworld: ['Upper world (W)', 'Underworld (U)'],
    glass: ['Real (R)', 'Mirror (M)'],
  }[g];
  $('board1-title').textContent = titles[0];
  $('board2-title').textContent = titles[1];
  drawBoards();
}

/** The Earthquake displacement when the board is drawn displaced, else null. */
function quake() {
  if (state.game !== 'fide' || !$('eq-on').checked) return null;
  const clamp = (v) => Math.max(-8, Math.min(8, Number.isFinite(v) ? v : 0));
  return { dx: clamp(parseInt($('eq-dx').value, 10)), dy: clamp(parseInt($('eq-dy').value, 10)) };
}

function drawBoards() {
  const q = quake();
  const two = state.game !== 'fide';
  // A displaced board is wider; shrink its cells so it keeps to the column.
  let cell = two ? 36 : 46;
  if (q) {
    const w = Math.max(7, q.dx + 7) - Math.min(0, q.dx) + 1;
    const h = Math.max(7, q.dy + 3) - Math.min(4, q.dy) + 1;
    cell = Math.max(24, Math.min(46, Math.floor(520 / Math.max(w, h))));
  }
  board1.opts.quake = q;
  board1.opts.cell = cell;
  board2.opts.cell = cell;
  board1.set(state.main);
  if (two) board2.set(state.second);
  noteHiddenMen(q);
}

/** Men standing on squares that a displacement hides cannot be clicked; name them. */
function noteHiddenMen(q) {
  const box = $('hidden-note');
  box.replaceChildren();
  if (!q) return;
  const visible = board1.visibleSquares();
  const hidden = [];
  for (let i = 0; i < 64; i++) {
    const name = sqName(i % 8, Math.floor(i / 8));
    if (state.main[i] && !visible.has(name)) hidden.push(name);
  }
  if (!hidden.length) return;
  const btn = el('button', { type: 'button' }, 'remove them');
  btn.addEventListener('click', () => {
    hidden.forEach((sq) => putMan(state.main, sq, ''));
    changed();
  });
  box.append(el('span', { class: 'err' }, `Men on squares this displacement hides: ${hidden.join(', ')}. `), btn);
}

function val(id) {
  return $(id).value.trim();
}

/** Writes one operation, quoting its operand where the format needs it. */
function formatOp(name, value) {
  if (value === null || value === undefined || value === '') return name + ';';
  const v = String(value).replace(/"/g, '');
  if (MOVE_LIST_OPS.has(name)) return `${name} ${v};`;
  if (QUOTED_OPS.has(name) || !/^[A-Za-z0-9_.+\-]+$/.test(v)) return `${name} "${v}";`;
  return `${name} ${v};`;
}

/** The operations the form describes, in the order the format lists them. */
function formOps() {
  const ops = [];
  if (state.game === 'fide') {
    if ($('td-on').checked) {
      ops.push(['trapdoor', val('td-t') || '1']);
      if (val('td-timers')) ops.push(['timers', val('td-timers')]);
      if ($('td-order').value === 'falls-first') ops.push(['trapdoor_order', 'falls-first']);
    }
    if ($('taxi-on').checked) {
      ops.push(['taxi', `${val('taxi-w') || '0'} ${val('taxi-b') || '0'}`]);
      if (val('taxi-income') !== '') ops.push(['taxi_income', val('taxi-income')]);
    }
    if ($('eq-on').checked) {
      ops.push(['earthquake', `${val('eq-dx') || '0'} ${val('eq-dy') || '0'}`]);
      if ($('eq-void').value === 'fly') ops.push(['void', 'fly']);
      if (val('eq-after')) ops.push(['aftershock', val('eq-after')]);
    }
  } else if (state.game === 'underworld') {
    ops.push(['underworld', placementToString(state.second)]);
    if ($('uw-phase').value) ops.push(['phase', $('uw-phase').value]);
    if (val('uw-reserve')) ops.push(['reserve', val('uw-reserve')]);
    if (val('uw-homes')) ops.push(['homes', val('uw-homes')]);
  } else {
    ops.push(['mirror', placementToString(state.second)]);
    if ($('lg-epboard').value) ops.push(['ep_board', $('lg-epboard').value]);
  }
  return ops;
}

/** The position line of the editor: FEN fields, then operations, the stipulation last. */
function buildLine() {
  const fields = [placementToString(state.main), $('turn').value, val('castling') || '-', val('ep') || '-'];
  const ops = formOps().concat(state.extra);
  if (val('stip')) ops.push(['stip', val('stip')]);
  return fields.join(' ') + ' ' + ops.map(([n, v]) => formatOp(n, v)).join(' ');
}

/** Loads what the server read from a line (fields, operations, kind) into the form. */
function loadRead(data) {
  const f = data.fields || {};
  try {
    state.main = parsePlacement(f.placement || '8/8/8/8/8/8/8/8');
  } catch (e) {
    state.main = emptyPlacement();
  }
  $('turn').value = f.turn === 'b' ? 'b' : 'w';
  $('castling').value = f.castling || '-';
  $('ep').value = f.ep || '-';
  // Everything optional starts from its default; the line sets what it names.
  $('td-on').checked = false; $('td-t').value = '1'; $('td-timers').value = ''; $('td-order').value = 'mate-first';
  $('taxi-on').checked = false; $('taxi-income').value = '';
  $('eq-on').checked = false; $('eq-void').value = 'block'; $('eq-after').value = '';
  $('uw-phase').value = ''; $('uw-reserve').value = ''; $('uw-homes').value = '';
  $('lg-epboard').value = '';
  state.extra = [];
  let game = data.kind === 'underworld' ? 'underworld' : data.kind === 'glass' ? 'glass' : 'fide';
  for (const [name, rawValue] of data.operations || []) {
    const value = rawValue === null || rawValue === undefined ? '' : String(rawValue);
    const two = value.trim().split(/\s+/);
    switch (name) {
      case 'trapdoor': $('td-on').checked = true; $('td-t').value = value; break;
      case 'timers': $('td-timers').value = value; break;
      case 'trapdoor_order': $('td-order').value = value === 'falls-first' ? 'falls-first' : 'mate-first'; break;
      case 'taxi': $('taxi-on').checked = true; $('taxi-w').value = two[0] || '0'; $('taxi-b').value = two[1] || '0'; break;
      case 'taxi_income': $('taxi-income').value = value; break;
      case 'earthquake': $('eq-on').checked = true; $('eq-dx').value = two[0] || '0'; $('eq-dy').value = two[1] || '0'; break;
      case 'void': $('eq-void').value = value === 'fly' ? 'fly' : 'block'; break;
      case 'aftershock': $('eq-after').value = value; break;
      case 'underworld':
      case 'mirror':
        game = name === 'mirror' ? 'glass' : 'underworld';
        try { state.second = parsePlacement(value); } catch (e) { state.second = emptyPlacement(); }
        break;
      case 'phase': $('uw-phase').value = value.toUpperCase(); break;
      case 'reserve': $('uw-reserve').value = value; break;
      case 'homes': $('uw-homes').value = value; break;
      case 'ep_board': $('lg-epboard').value = value.toUpperCase(); break;
      case 'stip': $('stip').value = value; break;
      case 'dm': $('stip').value = '#' + value; break;
      default: state.extra.push([name, value]);
    }
  }
  if (data.stip && !(data.operations || []).some(([n]) => n === 'stip' || n === 'dm')) $('stip').value = data.stip;
  setGame(game);
}

// ---- Errors ---------------------------------------------------------------------

function clearErrors() {
  document.querySelectorAll('.err[id^=err-]').forEach((e) => { e.textContent = ''; });
}

/** Shows a server error next to its field, or next to the line when the page has no
 *  visible control for that field. */
function showError(data, forceLine) {
  const field = data.field || 'line';
  let target = forceLine ? 'err-line' : (ERROR_TARGET[field] || 'err-line');
  // An empty message span is not displayed, so visibility is judged by its container
  // (a control of another game is hidden, or disabled with its fieldset).
  const node = $(target);
  const holder = node && node.parentElement;
  if (!holder || holder.offsetParent === null || holder.closest('fieldset:disabled')) target = 'err-line';
  let msg = data.error || 'error';
  if (target === 'err-line' && field !== 'line' && !msg.startsWith(field)) msg = `${field}: ${msg}`;
  if (target === 'err-line' && data.column !== null && data.column !== undefined) msg += ` (column ${data.column})`;
  $(target).textContent = msg;
  return target;
}

// ---- Reading the line back --------------------------------------------------------

let previewSeq = 0;

/** Asks the server to read the editor's line: the diagram, or the fault in place. */
async function refreshPreview() {
  const seq = ++previewSeq;
  const line = buildLine();
  const r = await api('POST', '/api/position', { line });
  if (seq !== previewSeq) return; // a later edit has asked already
  clearErrors();
  if (r.ok) {
    $('preview').innerHTML = r.data.svg || '';
    $('preview').style.opacity = '';
  } else {
    $('preview').style.opacity = '0.35';
    showError(r.data);
  }
}
const refreshSoon = debounce(refreshPreview, 250);

/** After every edit: redraw, rewrite the line, and have it read back shortly. */
function changed() {
  drawBoards();
  $('line').value = buildLine();
  refreshSoon();
}

/** "Read": the user's own line goes into the editor when the server can read it. */
async function readLine(line) {
  const r = await api('POST', '/api/position', { line });
  if (!r.ok) {
    clearErrors();
    // The message goes next to the field at fault (the Taxi cash, the stipulation, ...),
    // or next to the line when the form has no visible control for it.
    showError(r.data);
    const col = r.data.column;
    if (Number.isInteger(col)) {
      const input = $('line');
      input.focus();
      input.setSelectionRange(Math.max(0, col - 1), col);
    }
    return false;
  }
  loadRead(r.data);
  $('line').value = buildLine();
  clearErrors();
  $('preview').innerHTML = r.data.svg || '';
  $('preview').style.opacity = '';
  refreshSoon();
  return true;
}

async function importPopeye() {
  const list = $('import-list');
  list.replaceChildren();
  $('err-import').textContent = '';
  const r = await api('POST', '/api/import', { text: $('popeye').value });
  if (!r.ok) {
    $('err-import').textContent = r.data.error;
    return;
  }
  const lines = r.data.lines || [];
  const errors = r.data.errors || [];
  for (const e of errors) list.append(el('div', { class: 'err block' }, e));
  if (lines.length === 1) {
    await readLine(lines[0]);
    list.append(el('div', { class: 'okmsg small' }, 'Imported one position.'));
  } else if (lines.length > 1) {
    list.append(el('div', { class: 'small' }, `${lines.length} positions: pick one.`));
    lines.forEach((line, i) => {
      list.append(el('button', { type: 'button', onclick: () => readLine(line), title: line },
        `${i + 1}. ${line}`));
    });
  } else if (!errors.length) {
    list.append(el('div', { class: 'muted small' }, 'No position found in that text.'));
  }
}

// ---- Solving ----------------------------------------------------------------------

let job = null;
let pollTimer = null;

async function solve() {
  $('err-solve').textContent = '';
  clearErrors();
  const maxText = val('opt-max');
  let limit = parseInt(val('opt-time'), 10);
  if (!Number.isFinite(limit)) limit = 60;
  limit = Math.max(1, Math.min(600, limit));
  $('opt-time').value = limit;
  // Set play belongs to #N and s#N, a most number of solutions to help-mates: each
  // option is sent only where it applies, so a leftover tick does not refuse the solve.
  const help = /^h#/i.test(val('stip'));
  const body = {
    line: buildLine(),
    stip: val('stip'),
    tries: $('opt-tries').checked && !help,
    set_play: $('opt-set').checked && !help && (stipMoves(val('stip')) || 0) >= 2,
    max_solutions: maxText && help ? Math.max(1, parseInt(maxText, 10) || 1) : null,
    time_limit: limit,
  };
  const r = await api('POST', '/api/solve', body);
  if (!r.ok) {
    if (r.status === 503 || !r.data.field) $('err-solve').textContent = r.data.error;
    else showError(r.data);
    return;
  }
  job = r.data.job;
  $('result').replaceChildren();
  $('solve').disabled = true;
  $('stop').disabled = false;
  $('progress-box').hidden = false;
  showProgress({ elapsed_ms: 0, progress: null });
  poll();
}

async function poll() {
  if (!job) return;
  const id = job;
  const r = await api('GET', `/api/solve/${encodeURIComponent(id)}`);
  if (id !== job) return;
  if (!r.ok) {
    finish();
    $('err-solve').textContent = r.data.error;
    return;
  }
  jobUpdate(r.data);
}

/** One report on the job: progress while it runs, the answer once it ends. */
function jobUpdate(data) {
  showProgress(data);
  if (data.state === 'running') {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(poll, 300);
    return;
  }
  finish();
  if (data.state === 'failed' && !data.result) {
    $('err-solve').textContent = data.error || 'the solve failed';
    return;
  }
  if (data.error) $('err-solve').textContent = data.error;
  renderResult(data.result, data.state);
}

function finish() {
  clearTimeout(pollTimer);
  job = null;
  $('solve').disabled = false;
  $('stop').disabled = true;
}

async function stop() {
  if (!job) return;
  const id = job;
  $('stop').disabled = true;
  const r = await api('POST', `/api/solve/${encodeURIComponent(id)}/stop`);
  if (id !== job) return;
  if (!r.ok) {
    $('err-solve').textContent = r.data.error;
    poll();
    return;
  }
  jobUpdate(r.data);
}

function showProgress(data) {
  const p = data.progress;
  const secs = ((data.elapsed_ms || 0) / 1000).toFixed(1) + ' s';
  const parts = [];
  let frac = 0;
  if (p && p.total) {
    parts.push(`${p.done}/${p.total} first moves`);
    frac = p.done / p.total;
  }
  if (p && p.found) parts.push(p.found);
  parts.push(secs);
  if (data.state && data.state !== 'running') frac = data.state === 'done' ? 1 : frac;
  $('progress-bar').style.width = (100 * frac).toFixed(1) + '%';
  $('progress-text').textContent = (data.state === 'running' || !data.state ? 'Solving: ' : '') + parts.join(' · ');
}

// ---- Showing the answer -------------------------------------------------------------

/** The N of a stipulation ("#2" → 2, "h#2.5" → 2.5), or null. */
function stipMoves(stip) {
  const m = /(\d+(?:\.\d+)?)\s*$/.exec(stip || '');
  return m ? Number(m[1]) : null;
}

function renderResult(result, jobState) {
  const box = $('result');
  box.replaceChildren();
  if (!result || typeof result !== 'object') {
    box.append(el('div', { class: 'status-line' }, jobState === 'stopped' ? 'Stopped before any result.' : 'No result.'));
    return;
  }
  box.append(statusLine(result, jobState));
  const sol = el('div', { class: 'solution' });
  try {
    if (result.tree && typeof result.tree === 'object') renderTree(result, sol);
    else if (Array.isArray(result.solutions)) renderSolutions(result, sol);
  } catch (e) {
    // An answer of a shape this page does not know is still shown, as JSON below.
    sol.append(el('div', { class: 'err block' }, 'Could not lay this answer out: ' + e.message));
  }
  if (Array.isArray(result.undecided) && result.undecided.length) {
    sol.append(el('div', { class: 'note' }, 'Not decided when the search stopped: ' + result.undecided.join(', ')));
  }
  box.append(sol);

  const json = JSON.stringify(result, null, 2);
  const copy = el('button', { type: 'button' }, 'Copy result JSON');
  copy.addEventListener('click', () => copyText(json, copy));
  box.append(el('details', {}, el('summary', {}, 'Result as JSON'), el('div', { class: 'row' }, copy), el('pre', {}, json)));
}

function statusLine(result, jobState) {
  const incomplete = result.complete === false || jobState === 'stopped';
  let text;
  switch (result.status) {
    case 'solved': text = 'Solved'; break;
    case 'no-solution': text = 'No solution'; break;
    case 'timeout': text = 'Time limit reached'; break;
    case 'error': text = 'Error' + (result.error ? ': ' + result.error : ''); break;
    default: text = result.status ? String(result.status) : 'Finished';
  }
  if (jobState === 'stopped') text = 'Stopped' + (result.status && result.status !== 'timeout' ? ` (${text.toLowerCase()} so far)` : '');
  if (incomplete) text += ': incomplete';
  const bits = [text];
  if (result.stip) bits.push(result.stip);
  if (Array.isArray(result.solutions)) {
    const n = result.solutions.length;
    bits.push(`${n} solution${n === 1 ? '' : 's'}`);
  } else if (Array.isArray(result.keys)) {
    const n = result.keys.length;
    if (n) bits.push(`${n} key${n === 1 ? '' : 's'}` + (result.cooked ? ' (cooked)' : ''));
  }
  if (result.nodes !== undefined) bits.push(`${Number(result.nodes).toLocaleString('en')} nodes`);
  if (result.millis !== undefined) bits.push(`${(result.millis / 1000).toFixed(result.millis < 10000 ? 2 : 1)} s`);
  return el('div', { class: 'status-line' + (incomplete ? ' incomplete' : '') }, bits.join(' · '));
}

// The tree is laid out as published solutions are (as `fairysolve solve` prints it):
// the key with "!", its threat or zugzwang, each defence on a line of its own with the
// continuations, a forced sequence on one line until play branches.
function renderTree(result, box) {
  const keys = Array.isArray(result.keys) && result.keys.length ? result.keys : Object.keys(result.tree);
  const first = result.tree[keys[0]] || Object.values(result.tree)[0];
  const ctx = {
    attacker: first ? first.side : 'white',
    moves: stipMoves(result.stip),
    underworld: state.game === 'underworld',
  };
  if (!keys.length) box.append(el('div', { class: 'note' }, 'No key.'));
  const lines = [];
  for (const k of keys) {
    const node = result.tree[k];
    if (!node) {
      lines.push({ segs: [el('span', { class: 'key' }, `1.${k}!`)], branches: [] });
      continue;
    }
    lines.push(buildLineTree(ctx, node, 1, true, { key: true }));
  }
  const big = lines.reduce((n, l) => n + countLines(l), 0) > 400;
  for (const l of lines) box.append(renderLine(l, 0, big));

  if (Array.isArray(result.tries) && result.tries.length) {
    box.append(el('h3', {}, 'Tries'));
    for (const t of result.tries) {
      const refs = (t.refutations || []).map((r) => r + '!').join(', ');
      box.append(el('div', { class: 'line try' }, `1.${t.san || t.move}? `, refs || '(no refutation listed)'));
    }
  }
  if (result.set_play && typeof result.set_play === 'object' && !Array.isArray(result.set_play)) {
    const fulfilled = new Set(result.set_play_fulfilled || []);
    const entries = Object.entries(result.set_play);
    box.append(el('h3', {}, 'Set play'));
    if (!entries.length) box.append(el('div', { class: 'note' }, 'No set play.'));
    for (const [defence, replies] of entries) {
      let text = `1...${defence}`;
      if (fulfilled.has(defence)) text += ' (fulfils the stipulation)';
      else if (!replies || !replies.length) text += ' (unprovided)';
      else text += ' ' + replies.map((r) => `2.${r}`).join(', ');
      box.append(el('div', { class: 'line' }, text));
    }
  }
}

/** Order of a move within a round, to number moves as rounds: on the Underworld the
 *  round is WW, BW, BU, WU; elsewhere the attacker's move, then the defender's. */
function phaseIndex(ctx, node) {
  const attacking = node.side === ctx.attacker;
  if (!ctx.underworld) return attacking ? 0 : 1;
  const onU = String(node.move || '').startsWith('U:');
  const white = node.side === 'white';
  if (white) return onU ? 3 : 0;
  return onU ? 2 : 1;
}

/** An Underworld King's placement after its capture ("U:k@a8") is made within the
 *  capturing turn (rules.md 4.8e): it starts no round of its own. */
function isPlacement(node) {
  const m = String(node.move || '');
  return m.includes('@') && !/[a-h][1-8][a-h][1-8]/.test(m);
}

/** Round and phase of `kid`, which follows a move of phase `phase` in round `round`. */
function stepTo(ctx, kid, round, phase) {
  if (isPlacement(kid)) return { round, phase };
  const p = phaseIndex(ctx, kid);
  return { round: p <= phase ? round + 1 : round, phase: p };
}

/** The text of one move with its number and marks. */
function moveText(ctx, node, round, numbered, marks) {
  const attacking = node.side === ctx.attacker;
  let s = attacking ? `${round}.` : numbered ? `${round}...` : '';
  s += node.san || node.move || '?';
  if (marks.key) s += '!';
  if (Array.isArray(node.cash) && node.cash.length === 2) s += ` [W ${node.cash[0]} B ${node.cash[1]}]`;
  else if (node.cash !== null && node.cash !== undefined) s += ` [${node.cash}]`;
  if (node.king_fell) s += ' (the king falls)';
  if (marks.key && ctx.moves && node.wins_in < ctx.moves) s += ` (short: wins in ${node.wins_in})`;
  if (marks.alike) s += ` (or ${marks.alike} other${marks.alike === 1 ? '' : 's'} alike)`;
  if (marks.dual) s += ' (dual)';
  if (Array.isArray(node.threat)) {
    if (!node.threat.length && (node.next || []).length && !node.truncated) s += ' (zugzwang)';
    else if (node.threat.length) s += ` (threat: ${node.threat.map((t) => `${round + 1}.${t.san || t.move}`).join(', ')})`;
  }
  if (node.truncated) s += ' … (tree cut here)';
  return s;
}

/** Children with each unanswered attacker's move that wins exactly as an earlier one
 *  folded into the first of its kind (two-board games: "or 7 others alike"). */
function groups(ctx, children) {
  // The same children are grouped again by inlineable() and extend(): remember.
  if (!ctx.groupCache) ctx.groupCache = new WeakMap();
  if (children && ctx.groupCache.has(children)) return ctx.groupCache.get(children);
  const out = [];
  for (const c of children || []) {
    const kids = c.next || [];
    const unanswered = c.side === ctx.attacker && kids.length && kids.every((g) => g.side === ctx.attacker);
    const shape = unanswered ? kids.map((g) => lineText(buildLineTree(ctx, g, 1, true, {}))).join('\n') : null;
    const same = shape !== null && out.find((g) => g.shape === shape);
    if (same) same.alike += 1;
    else out.push({ node: c, alike: 0, shape });
  }
  if (children) ctx.groupCache.set(children, out);
  return out;
}

/** Whether a node and all after it fit on one line among other continuations. */
function inlineable(ctx, node) {
  if (node.truncated || Array.isArray(node.threat)) return false;
  const kids = groups(ctx, node.next);
  if (!kids.length) return true;
  return kids.length === 1 && inlineable(ctx, kids[0].node);
}

/** A line of the tree: text segments, then branches (each a line of its own). */
function buildLineTree(ctx, node, round, numbered, marks, phase = phaseIndex(ctx, node)) {
  const line = { segs: [], branches: [] };
  line.segs.push(marks.key ? el('span', { class: 'key' }, moveText(ctx, node, round, numbered, marks))
    : moveText(ctx, node, round, numbered, marks));
  extend(ctx, line, node, round, marks, phase);
  return line;
}

function extend(ctx, line, node, round, marks, phase) {
  const kids = groups(ctx, node.next);
  if (!kids.length) return;
  const answered = node.side === ctx.attacker && kids[0].node.side !== ctx.attacker;
  const breaks = answered && (marks.key || Array.isArray(node.threat));
  if (kids.length === 1 && !breaks) {
    // One way on: it continues on the same line.
    const kid = kids[0].node;
    const at = stepTo(ctx, kid, round, phase);
    const numbered = kid.side === ctx.attacker || at.round !== round;
    const m = { alike: kids[0].alike };
    line.segs.push(' ', moveText(ctx, kid, at.round, numbered, m));
    extend(ctx, line, kid, at.round, m, at.phase);
    return;
  }
  if (!answered && kids.every((k) => k.node.side === ctx.attacker && inlineable(ctx, k.node))) {
    // Continuations that end at once: one line, a dual when there are several.
    kids.forEach((k, i) => {
      const at = stepTo(ctx, k.node, round, phase);
      line.segs.push(i === 0 ? ' ' : ', ',
        lineText(buildLineTree(ctx, k.node, at.round, true, { alike: k.alike }, at.phase)));
    });
    if (kids.length > 1) line.segs.push(' (dual)');
    return;
  }
  const dual = kids.length > 1 && kids.every((k) => k.node.side === ctx.attacker);
  for (const k of kids) {
    const at = stepTo(ctx, k.node, round, phase);
    line.branches.push(buildLineTree(ctx, k.node, at.round, true, { alike: k.alike, dual }, at.phase));
  }
}

function lineText(line) {
  const own = line.segs.map((s) => (typeof s === 'string' ? s : s.textContent)).join('');
  return [own, ...line.branches.map(lineText)].join(' ');
}

function countLines(line) {
  return 1 + line.branches.reduce((n, b) => n + countLines(b), 0);
}

/** A line with branches is a <details> (a variation that folds); a line without is text. */
function renderLine(line, depth, big) {
  if (!line.branches.length) return el('div', { class: 'line' }, ...line.segs);
  const d = el('details', {}, el('summary', {}, ...line.segs),
    el('div', { class: 'branches' }, line.branches.map((b) => renderLine(b, depth + 1, big))));
  d.open = !big || depth === 0;
  return d;
}

/** Help-mates and proof games: numbered move pairs, one solution a line. */
function renderSolutions(result, box) {
  const stip = String(result.stip || '');
  const help = /^h#/i.test(stip);
  const numberLine = (moves) => {
    const out = [];
    let i = 0;
    let n = 1;
    // h#N.5: White's move first, alone ("1...e4"), then the pairs.
    if (help && moves.length % 2 === 1) {
      out.push(`1...${moves[0]}`);
      i = 1;
      n = 2;
    }
    for (; i < moves.length; i += 2, n++) {
      out.push(`${n}.${moves[i]}` + (i + 1 < moves.length ? ` ${moves[i + 1]}` : ''));
    }
    return out.join(' ');
  };
  const list = (items) => el('ol', { class: 'plain' }, items.map((s) => el('li', {}, Array.isArray(s) ? numberLine(s) : JSON.stringify(s))));
  if (result.solutions.length) box.append(list(result.solutions));
  else box.append(el('div', { class: 'note' }, result.complete === false ? 'No solution found before the search stopped.' : 'No solution.'));
  if (result.max_solutions_reached) box.append(el('div', { class: 'note' }, 'Stopped at the maximum number of solutions asked for.'));
  if (Array.isArray(result.short_solutions) && result.short_solutions.length) {
    // A short solution mates sooner than the stipulation asks: a flaw of the problem.
    const plies = result.short_solutions[0].length;
    box.append(el('h3', {}, `Short solutions (mate in ${plies} single moves): a flaw`));
    box.append(list(result.short_solutions));
  }
  if (Array.isArray(result.cooks) && result.cooks.length) {
    box.append(el('h3', {}, 'Shorter games (cooks)'));
    box.append(list(result.cooks));
  }
  if (result.shortest !== undefined && result.shortest !== null && !help) {
    box.append(el('div', { class: 'note' }, `Shortest game: ${result.shortest}`));
  }
}

// ---- Buttons and fields -----------------------------------------------------------------

function clearBoards() {
  state.main = emptyPlacement();
  state.second = emptyPlacement();
  $('castling').value = '-';
  $('ep').value = '-';
  changed();
}

function standardArray() {
  if (state.game === 'underworld') {
    state.main = parsePlacement(STANDARD);
    state.second = parsePlacement(UNDERWORLD_START);
    $('uw-phase').value = '';
  } else if (state.game === 'glass') {
    state.main = parsePlacement(GLASS_REAL_START);
    state.second = parsePlacement(GLASS_MIRROR_START);
    $('lg-epboard').value = '';
  } else {
    state.main = parsePlacement(STANDARD);
  }
  $('turn').value = 'w';
  $('castling').value = 'KQkq';
  $('ep').value = '-';
  changed();
}

document.querySelectorAll('input[name=game]').forEach((r) => r.addEventListener('change', () => {
  state.game = gameChoice();
  // A second board starts from its usual contents the first time it is shown empty.
  if (state.second.every((m) => !m)) {
    state.second = parsePlacement(state.game === 'underworld' ? UNDERWORLD_START : '8/8/8/8/8/8/8/8');
  }
  layoutForGame();
  changed();
}));

// Every form control of the position rewrites the line.
for (const id of ['td-on', 'td-t', 'td-timers', 'td-order', 'taxi-on', 'taxi-w', 'taxi-b', 'taxi-income',
  'eq-on', 'eq-dx', 'eq-dy', 'eq-void', 'eq-after', 'uw-phase', 'uw-reserve', 'uw-homes', 'lg-epboard',
  'turn', 'castling', 'ep', 'stip']) {
  $(id).addEventListener('input', changed);
  $(id).addEventListener('change', changed);
}

$('clear').addEventListener('click', clearBoards);
$('standard').addEventListener('click', standardArray);
$('read').addEventListener('click', () => readLine($('line').value));
$('line').addEventListener('keydown', (e) => { if (e.key === 'Enter') readLine($('line').value); });
$('copy-line').addEventListener('click', (e) => copyText($('line').value, e.currentTarget));
$('import').addEventListener('click', importPopeye);
$('solve').addEventListener('click', solve);
$('stop').addEventListener('click', stop);

// A first position to work on: the help-mate of the README.
state.main = parsePlacement('8/8/8/1k6/6B1/8/3K4/2R5');
$('turn').value = 'b';
$('stip').value = 'h#2';
layoutForGame();
changed();
