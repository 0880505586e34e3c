// Drives headless Chromium through the pages of `fairysolve serve` as a person uses them:
// sets up and solves problems on the workbench by clicking, and plays a short
// Looking-Glass game between two players, each in a browser context of his own.
//
//   node pages.mjs --base http://127.0.0.1:PORT --shots DIR [--failures DIR]
//
// run.sh starts the server and calls this. The screenshots of docs/serve.md go to
// --shots; a picture of each page where a check failed goes to --failures. One line is
// printed per check passed; a failed check ends its part (the checks after it in the
// part build on it) with a message saying what was expected and what the page showed,
// and the exit status is 1.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

// ---- Arguments ------------------------------------------------------------------

function parseArgs(argv) {
  const out = { base: null, shots: null, failures: null, chromium: process.env.CHROMIUM_PATH || '/usr/bin/chromium' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--base') out.base = argv[++i];
    else if (a === '--shots') out.shots = argv[++i];
    else if (a === '--failures') out.failures = argv[++i];
    else if (a === '--chromium') out.chromium = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  if (!out.base || !out.shots) throw new Error('usage: node pages.mjs --base URL --shots DIR [--failures DIR] [--chromium PATH]');
  out.failures = out.failures || out.shots;
  out.base = out.base.replace(/\/+$/, '');
  return out;
}

const args = parseArgs(process.argv.slice(2));
mkdirSync(args.shots, { recursive: true });
mkdirSync(args.failures, { recursive: true });

const WAIT_MS = 6000;      // how long any one expected change may take
const SOLVE_MS = 30000;    // a solve (it polls every 300 ms; these take milliseconds)
const VIEWPORT = { width: 1280, height: 900 };

// ---- Checks -----------------------------------------------------------------------

let passed = 0;
const failures = [];
const skipped = [];

class CheckFailed extends Error {}

function fail(message) {
  throw new CheckFailed(message);
}

function ok(name) {
  passed += 1;
  console.log(`ok   ${name}`);
}

/** Runs one part of the test; the first failed check ends that part. */
async function part(title, steps, onFailure) {
  console.log(`-- ${title}`);
  for (const [name, fn] of steps) {
    if (failures.some((f) => f.part === title)) {
      skipped.push(`${title}: ${name}`);
      continue;
    }
    try {
      await fn();
      ok(name);
    } catch (e) {
      const msg = e instanceof CheckFailed ? e.message : `${e.name}: ${e.message}`;
      failures.push({ part: title, name, msg });
      console.log(`FAIL ${name}\n     ${msg.split('\n').join('\n     ')}`);
      if (onFailure) await onFailure(name).catch(() => {});
    }
  }
}

/**
 * Waits until `probe()` (run in Node, may await page calls) returns a truthy value and
 * returns it; on timeout fails with `what` and the last value seen (or what `show()`
 * says the page shows then).
 */
async function waitUntil(what, probe, timeout = WAIT_MS, show = null) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) return last;
    } catch (e) {
      last = `(${e.message.split('\n')[0]})`;
    }
    if (Date.now() > end) {
      let seen = typeof last === 'string' ? last : JSON.stringify(last);
      if (show) seen = await Promise.resolve(show()).then((v) => JSON.stringify(v), (e) => `(${e.message})`);
      fail(`waited ${timeout} ms for ${what}; last seen: ${seen}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The text of an element (trimmed), or null when there is none. */
async function textOf(page, selector) {
  const loc = page.locator(selector);
  if ((await loc.count()) === 0) return null;
  return (await loc.first().textContent()).trim();
}

/** Waits for an element's text to satisfy `test` (a RegExp or a function). */
async function waitText(page, selector, test, what, timeout = WAIT_MS) {
  const match = typeof test === 'function' ? test : (t) => test.test(t);
  let seen = null;
  await waitUntil(`${what} (${selector})`, async () => {
    seen = await textOf(page, selector);
    return seen !== null && match(seen);
  }, timeout, () => seen);
  return seen;
}

/** Presses Solve and waits for the status line of this solve (not one left from before). */
async function solveAndWait(page, what) {
  const old = await page.$('#result .status-line');
  await page.click('#solve');
  if (old) await waitUntil(`the previous result to be cleared when ${what} starts`, () => old.evaluate((e) => !e.isConnected));
  return waitText(page, '#result .status-line', (t) => t.length > 0, `${what} to end`, SOLVE_MS);
}

/** The men on a board drawn by board.js: {square: {white, title}}. */
async function menOn(page, boardSelector) {
  return page.$$eval(`${boardSelector} [data-square]`, (cells) => {
    const out = {};
    for (const c of cells) {
      const man = c.querySelector('.man');
      if (man) out[c.dataset.square] = { white: man.classList.contains('w'), title: man.title };
    }
    return out;
  });
}

async function shot(page, file, opts = {}, dir = args.shots) {
  const path = join(dir, file);
  await page.screenshot({ path, ...opts });
  return path;
}

// ---- The browser ------------------------------------------------------------------

const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
});

// A page whose script throws is a failure even when the page still looks right.
const pageErrors = [];
function watch(page, who) {
  page.on('pageerror', (e) => pageErrors.push(`${who}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // A refusal the test provokes (422) and the browser's own favicon request are expected.
    const url = m.location()?.url || '';
    if (/^Failed to load resource/.test(m.text()) && (/ 422 /.test(m.text()) || url.endsWith('/favicon.ico'))) return;
    pageErrors.push(`${who} console: ${m.text()} ${url}`);
  });
  page.on('dialog', (d) => {
    pageErrors.push(`${who}: unexpected dialog "${d.message()}"`);
    d.dismiss().catch(() => {});
  });
}

async function newPage(who) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  watch(page, who);
  return { context, page };
}

// A watchdog: the whole run must not hang whatever the pages do.
const watchdog = setTimeout(() => {
  console.log('FAIL the browser test did not finish within 180 s');
  process.exit(1);
}, 180000);

// ---- Workbench --------------------------------------------------------------------

const HELP_PLACEMENT = '8/8/8/1k6/6B1/8/3K4/2R5';
const TAXI_BAD = 'k7/8/1K6/8/8/8/8/7R w - - taxi "x"; dm 1;';
const TWO_MOVER = 'n4B1n/1R3P2/5k2/2N3pP/1p2K1B1/2r2Np1/1Q3P2/5R2 w - - dm 2;';

async function workbench() {
  const { context, page } = await newPage('workbench');
  let dumps = 0;
  const dump = async () => {
    dumps += 1;
    const p = await shot(page, `fail-workbench-${dumps}.png`, { fullPage: true }, args.failures);
    console.log(`     (page as it was: ${p})`);
  };

  const clickMan = async (title) => {
    await page.click(`#palette button[title="${title}"]`);
    await waitUntil(`the palette's "${title}" to be the chosen man`,
      () => page.locator(`#palette button.active[title="${title}"]`).count());
  };
  const clickSquare = async (sq) => page.click(`#board1 [data-square="${sq}"]`);
  const line = () => page.inputValue('#line');

  await part('Workbench: a help-mate set up by clicking', [
    ['the workbench opens with a palette and an editable board', async () => {
      await page.goto(args.base + '/');
      await page.locator('#board1 [data-square="a1"]').waitFor();
      const n = await page.locator('#palette button[title]').count();
      if (n < 12) fail(`the palette shows ${n} buttons, 12 men and an eraser expected`);
    }],

    ['Clear empties the board; the reader then says it has no king', async () => {
      await page.click('#clear');
      await page.selectOption('#turn', 'w');
      await page.fill('#stip', '');
      await waitUntil('no man on the editor board', async () => (await page.locator('#board1 .man').count()) === 0);
      const l = await waitUntil('the line to read an empty board', async () => {
        const v = await line();
        return v.startsWith('8/8/8/8/8/8/8/8 w - -') ? v : false;
      }, WAIT_MS, line);
      if (/stip/.test(l)) fail(`the line still names a stipulation: ${l}`);
      // A board without kings cannot be read: the reader says so under the board, and
      // the diagram of the position before is greyed out.
      await waitText(page, '#err-board1', /no king/, 'the reader to say the empty board has no king');
      await waitUntil('the old diagram to be greyed out', () => page.locator('#preview').evaluate((e) => e.style.opacity === '0.35'));
    }],

    ['men chosen from the palette land on the squares clicked', async () => {
      const setup = [['black king', 'b5'], ['white bishop', 'g4'], ['white king', 'd2'], ['white rook', 'c1']];
      for (const [title, sq] of setup) {
        await clickMan(title);
        await clickSquare(sq);
        await waitUntil(`a ${title} on ${sq} of the editor board`,
          async () => (await menOn(page, '#board1'))[sq]?.title === title);
      }
      const men = await menOn(page, '#board1');
      const where = Object.entries(men).map(([s, m]) => `${m.title} ${s}`).sort().join(', ');
      if (Object.keys(men).length !== 4) fail(`4 men expected on the board, it has: ${where}`);
    }],

    ['Black to move and h#2 are written into the position line', async () => {
      await page.selectOption('#turn', 'b');
      await page.fill('#stip', 'h#2');
      const want = `${HELP_PLACEMENT} b - -`;
      const l = await waitUntil(`the line to start with "${want}" and name h#2`, async () => {
        const v = await line();
        return v.startsWith(want + ' ') && v.includes('stip "h#2";') ? v : false;
      }, WAIT_MS, line);
      const fields = l.split(' ').slice(0, 4).join(' ');
      if (fields !== want) fail(`the line reads "${l}", its fields should be "${want}"`);
      if (!l.includes('stip "h#2";')) fail(`the line "${l}" does not carry the stipulation h#2`);
    }],

    ['the diagram beside the editor is redrawn: an SVG with the four men, the black king on b5', async () => {
      await waitUntil('the preview to be redrawn (not greyed out) with exactly 4 men', async () =>
        (await page.locator('#preview').evaluate((e) => e.style.opacity === ''))
        && (await page.locator('#preview svg g.man[data-square]').count()) === 4);
      if (await textOf(page, '#err-board1')) fail(`the board still has an error: ${await textOf(page, '#err-board1')}`);
      const squares = await page.locator('#preview svg [data-square]').count();
      if (squares < 64 + 4) fail(`the preview SVG has ${squares} data-square elements, 64 squares and 4 men expected`);
      const king = page.locator('#preview svg g.man[data-square="b5"]');
      if ((await king.count()) !== 1) fail('the preview SVG has no man on b5');
      const cls = await king.getAttribute('class');
      if (!/black/.test(cls) || !/king/.test(cls)) fail(`the man on b5 of the preview is "${cls}", a black king expected`);
      const caption = await textOf(page, '#preview svg text.caption');
      if (caption && !/h#2/.test(caption)) fail(`the diagram's caption "${caption}" does not name h#2`);
    }],

    ['Solve finds the one solution 1.b5a4 d2c3 2.a4a3 c1a1 and says solved', async () => {
      const status = await solveAndWait(page, 'the h#2 solve');
      if (!/^Solved\b/.test(status)) fail(`the status reads "${status}", "Solved" expected`);
      if (!/\b1 solution\b/.test(status)) fail(`the status reads "${status}", "1 solution" expected`);
      const sols = await page.locator('#result .solution ol li').allTextContents();
      if (sols.length !== 1) fail(`${sols.length} solutions listed, 1 expected: ${JSON.stringify(sols)}`);
      const text = sols[0].replace(/\s+/g, ' ').trim();
      if (text !== '1.b5a4 d2c3 2.a4a3 c1a1') fail(`the solution reads "${text}", "1.b5a4 d2c3 2.a4a3 c1a1" expected`);
      if (!(await page.locator('#stop').isDisabled())) fail('Stop is still enabled after the solve ended');
    }],
  ], dump);

  await part('Workbench: a line that cannot be read', [
    ['a pasted line with bad Taxi cash is refused next to the Taxi field', async () => {
      await page.fill('#line', TAXI_BAD);
      await page.click('#read');
      const errorsShown = () => page.$$eval('.err[id^=err-]', (es) => es.filter((e) => e.textContent.trim())
        .map((e) => `${e.id}: ${e.textContent.trim()}`));
      let msg = '';
      await waitUntil('an error next to the Taxi field (#err-taxi)', async () => {
        msg = (await textOf(page, '#err-taxi')) || '';
        return msg.length > 0;
      }, WAIT_MS, errorsShown);
      if (!/taxi/i.test(msg) || !/cash/i.test(msg)) fail(`the Taxi error reads "${msg}", a message about the taxi cash expected`);
      if (!(await page.locator('#err-taxi').isVisible())) fail('the Taxi error is set but not visible');
      const legend = await page.locator('#err-taxi').evaluate((e) => e.closest('fieldset')?.querySelector('legend')?.textContent.trim());
      if (legend !== 'Taxi') fail(`the error stands in the fieldset "${legend}", not in the Taxi one`);
      const others = (await errorsShown()).filter((e) => !e.startsWith('err-taxi:'));
      if (others.length) fail(`the error is shown elsewhere too: ${others.join('; ')}`);
    }],
  ], dump);

  await part('Workbench: a #2 and its solution tree', [
    ['a #2 is read from a pasted line into the form', async () => {
      await page.fill('#line', TWO_MOVER);
      await page.click('#read');
      await waitUntil('the stipulation field to read #2', async () => (await page.inputValue('#stip')) === '#2');
      await waitUntil('the editor board to show the 18 men of the #2', async () => Object.keys(await menOn(page, '#board1')).length === 18);
      await waitUntil('the Taxi error to be gone', async () => (await textOf(page, '#err-taxi')) === '');
      await waitUntil('the diagram to show the 18 men of the #2', async () =>
        (await page.locator('#preview svg g.man[data-square]').count()) === 18);
      const l = await line();
      if (!l.startsWith('n4B1n/1R3P2/5k2/2N3pP/1p2K1B1/2r2Np1/1Q3P2/5R2 w - -')) fail(`the line was rewritten as "${l}"`);
      if (await page.isChecked('#taxi-on')) fail('the Taxi box is still ticked after reading a line without taxi');
    }],

    ['solving the #2 with tries marks 1.Ne5! as the key, with its threat and tries', async () => {
      await page.check('#opt-tries');
      const status = await solveAndWait(page, 'the #2 solve');
      if (!/^Solved\b/.test(status) || !/#2/.test(status)) fail(`the status reads "${status}", "Solved · #2 ..." expected`);
      if (!/\b1 key\b/.test(status)) fail(`the status reads "${status}", "1 key" expected`);
      const keys = await page.locator('#result .solution .key').allTextContents();
      if (keys.length !== 1) fail(`${keys.length} moves marked as key: ${JSON.stringify(keys)}`);
      if (!/^1\.Ne5!/.test(keys[0])) fail(`the key reads "${keys[0]}", "1.Ne5!" (f3-e5) expected`);
      if (!/threat: 2\.Ncd7#/.test(keys[0])) fail(`the key line "${keys[0]}" does not give the threat 2.Ncd7#`);
      const tries = await page.locator('#result .solution .try').allTextContents();
      if (!tries.length) fail('no tries are listed although tries were asked for');
      if (!tries.some((t) => t.startsWith('1.Kd4?'))) fail(`the try 1.Kd4? is not listed: ${JSON.stringify(tries)}`);
    }],

    ['the variations fold and unfold with a click', async () => {
      const details = page.locator('#result .solution details').filter({ has: page.locator('.key') }).first();
      const defence = details.locator('.branches .line', { hasText: '1...Nxf7' });
      if ((await defence.count()) !== 1) fail('the defence 1...Nxf7 is not listed under the key');
      const dtext = (await defence.textContent()).trim();
      if (!/2\.Ncd7#/.test(dtext) || !/2\.Rxf7#/.test(dtext)) fail(`the defence reads "${dtext}", its mates expected after it`);
      if (!(await details.evaluate((d) => d.open))) fail('the solution tree starts folded');
      if (!(await defence.isVisible())) fail('the defence 1...Nxf7 is not visible while unfolded');
      await details.locator(':scope > summary').click();
      await waitUntil('the variations to fold after a click', async () => !(await details.evaluate((d) => d.open)));
      if (await defence.isVisible()) fail('the defence is still visible when folded');
      await details.locator(':scope > summary').click();
      await waitUntil('the variations to unfold after a second click', async () => details.evaluate((d) => d.open));
      await waitUntil('the defence to show again', () => defence.isVisible());
    }],

    ['screenshot of the workbench with the solved #2', async () => {
      // The whole page at the window's width: the diagram and the whole solution tree.
      const p = await shot(page, 'serve-workbench.png', { fullPage: true });
      console.log(`     ${p}`);
    }],
  ], dump);
  await context.close();
}

// ---- Looking-Glass ------------------------------------------------------------------

async function lookingGlass() {
  const lobby = await newPage('lobby');
  const white = await newPage('White');
  const black = await newPage('Black');
  const dumps = async () => {
    for (const [who, p] of [['lobby', lobby.page], ['white', white.page], ['black', black.page]]) {
      if (p.url() !== 'about:blank') console.log(`     (${who}'s page as it was: ${await shot(p, `fail-${who}.png`, { fullPage: true }, args.failures)})`);
    }
  };

  // Every answer of the server to White's page, kept to check that none tells Black's board.
  const whiteAnswers = [];
  white.page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) {
      whiteAnswers.push(r.text().then((t) => ({ url: r.url(), text: t }), () => ({ url: r.url(), text: '' })));
    }
  });
  // Black's boards as Black's own page received them: none may reach White.
  const blackBoards = new Set(['rnbqkbnr']);
  black.page.on('response', async (r) => {
    if (!new URL(r.url()).pathname.startsWith('/api/play/')) return;
    try {
      const data = JSON.parse(await r.text());
      const st = data.state || data;
      if (typeof st.board === 'string' && /[a-z]/.test(st.board)) blackBoards.add(st.board);
    } catch (e) { /* not JSON: nothing to note */ }
  });
  const whiteKeepsSecrets = async (when) => {
    const dom = await white.page.content();
    const answers = await Promise.all(whiteAnswers);
    for (const b of blackBoards) {
      if (dom.includes(b)) fail(`${when}: White's page shows Black's board "${b}"`);
      const leak = answers.find((a) => a.text.includes(b));
      if (leak) fail(`${when}: the answer to White's ${leak.url} contains Black's board "${b}"`);
    }
  };

  const W = white.page;
  const B = black.page;
  let links = null;
  const logLines = (page) => page.locator('#log li').allTextContents();

  await part('Looking-Glass', [
    ['the lobby creates a game (standard arrays, strike rule) and shows two private links', async () => {
      const P = lobby.page;
      await P.goto(args.base + '/glass');
      await P.check('input[name=white-kind][value=standard]');
      await P.check('input[name=black-kind][value=standard]');
      await P.check('input[name=rule][value=strike]');
      if (!(await P.locator('#links').isHidden())) fail('the links are shown before a game was created');
      await P.click('#create');
      await P.locator('#links').waitFor({ state: 'visible' });
      links = {
        white: await waitUntil("White's link", () => P.inputValue('#link-white')),
        black: await P.inputValue('#link-black'),
      };
      const shape = /^http:\/\/[^/]+\/play\/([0-9a-zA-Z_-]+)\/([0-9a-zA-Z_-]+)$/;
      const mw = shape.exec(links.white);
      const mb = shape.exec(links.black);
      if (!mw || !mb) fail(`the links do not look like /play/GAME/TOKEN: ${links.white} ${links.black}`);
      if (!links.white.startsWith(args.base + '/')) fail(`White's link ${links.white} is not on this server`);
      if (mw[1] !== mb[1]) fail(`the two links name different games: ${mw[1]} and ${mb[1]}`);
      if (mw[2] === mb[2]) fail('both links carry the same token');
      if (mw[2].length < 32) fail(`the token ${mw[2]} is shorter than 128 bits in hex`);
      if ((await P.getAttribute('#open-white', 'href')) !== links.white) fail('the "open" link of White differs from the link shown');
      const id = await textOf(P, '#game-id');
      if (!id.includes(mw[1]) || !/strike rule/.test(id)) fail(`the game line reads "${id}", the game and "strike rule" expected`);
    }],

    ['screenshot of the lobby with the links', async () => {
      console.log(`     ${await shot(lobby.page, 'serve-glass.png')}`);
    }],

    ["White's page: White, the Real board, White's 16 men on ranks 1-2 only, White's turn", async () => {
      await W.goto(links.white);
      await waitText(W, '#who', /You play White/, "White's page to say who plays");
      const who = await textOf(W, '#who');
      if (!/Real board/.test(who)) fail(`White's page says "${who}", the Real board expected`);
      const title = await textOf(W, '#own-title');
      if (!/^Real board/.test(title)) fail(`White's board is titled "${title}"`);
      await waitText(W, '#turn', /^Your turn$/, "White's page to say it is White's turn");
      const men = await menOn(W, '#own');
      const squares = Object.keys(men);
      if (squares.length !== 16) fail(`White's board shows ${squares.length} men, 16 expected`);
      const off = squares.filter((s) => !/[12]$/.test(s) || !men[s].white);
      if (off.length) fail(`White's board shows men off ranks 1-2 or not White's: ${off.join(', ')}`);
      if (men.e1?.title !== 'white king' || men.a1?.title !== 'white rook') fail('the standard array is not on White\'s board (king e1, rook a1)');
    }],

    ["Black's page: Black, the Mirror board, waiting for White", async () => {
      await B.goto(links.black);
      await waitText(B, '#who', /You play Black/, "Black's page to say who plays");
      const who = await textOf(B, '#who');
      if (!/Mirror board/.test(who)) fail(`Black's page says "${who}", the Mirror board expected`);
      await waitText(B, '#turn', /White to move/, "Black's page to say White is to move");
      const men = await menOn(B, '#own');
      if (Object.keys(men).length !== 16 || Object.values(men).some((m) => m.white)) fail(`Black's board should show Black's 16 men only: ${JSON.stringify(men)}`);
    }],

    ['White orders e2-e4 by clicking e2, then e4', async () => {
      await W.click('#own [data-square="e2"]');
      await waitUntil('e2 to be marked as the chosen man', async () =>
        (await W.locator('#own [data-square="e2"].selected').count()) === 1);
      await W.click('#own [data-square="e4"]');
      const lines = await waitUntil("White's log to show the move", async () => {
        const ls = await logLines(W);
        return ls.some((l) => /You played R:e2e4/.test(l)) ? ls : false;
      });
      const mine = lines.find((l) => /You played R:e2e4/.test(l));
      if (!/e4 passed through the glass/.test(mine)) fail(`White's log reads "${mine}": the pawn passing through the glass expected`);
      const last = await textOf(W, '#last-answer');
      if (!/^Referee: You played R:e2e4/.test(last)) fail(`the referee's answer under the board reads "${last}"`);
      const men = await menOn(W, '#own');
      if (men.e2 || men.e4) fail("White's board still shows a man on e2 or e4 after the pawn passed to the Mirror");
      await waitText(W, '#turn', /Black to move/, "White's page to wait for Black");
      await whiteKeepsSecrets('after e2-e4');
    }],

    ["Black's page, after its poll, shows the white pawn arrived on e4 of its board", async () => {
      await waitUntil('a white pawn on e4 of Black\'s board', async () => (await menOn(B, '#own')).e4?.title === 'white pawn');
      await waitText(B, '#turn', /^Your turn$/, "Black's page to say it is Black's turn");
      const lines = await logLines(B);
      if (!lines.some((l) => /^1\.\s*White moved/.test(l))) fail(`Black's log does not tell White's move: ${JSON.stringify(lines)}`);
    }],

    ['Black orders M:e7e5 by typing it', async () => {
      await B.fill('#order', 'M:e7e5');
      await B.press('#order', 'Enter');
      await waitUntil("Black's log to show M:e7e5", async () => (await logLines(B)).some((l) => /You played M:e7e5/.test(l)));
      if ((await B.inputValue('#order')) !== '') fail('the order field is not emptied after the order was played');
      if (await textOf(B, '#err-order')) fail(`Black's order was refused: ${await textOf(B, '#err-order')}`);
    }],

    ["White's page then says it is White's turn again", async () => {
      await waitText(W, '#turn', /^Your turn$/, "White's page to say it is White's turn");
      const lines = await logLines(W);
      if (!lines.some((l) => /^2\.\s*Black moved/.test(l))) fail(`White's log does not tell Black's move: ${JSON.stringify(lines)}`);
      await whiteKeepsSecrets("after Black's e7-e5");
    }],

    ['White types an impossible R:a1a5: a strike with its reason', async () => {
      await W.fill('#order', 'R:a1a5');
      await W.click('#send');
      const answer = await waitText(W, '#last-answer', /Strike/, "the strike under White's board");
      if (!/^Referee: Strike 1 for White \(.+\)$/.test(answer)) fail(`the answer reads "${answer}", "Strike 1 for White (reason)" expected`);
      await waitUntil("the strike in White's log, with its reason", async () =>
        (await W.locator('#log li.strike').allTextContents()).some((l) => /Strike 1 for White \(.+\)/.test(l)));
      const strikes = await textOf(W, '#strikes');
      if (!/White 1, Black 0/.test(strikes)) fail(`the strike count reads "${strikes}"`);
      if (await textOf(W, '#err-order')) fail(`the order was refused as an error, not struck: ${await textOf(W, '#err-order')}`);
    }],

    ["Black's page shows White's strike without its reason", async () => {
      const li = await waitUntil("the strike in Black's log", async () => {
        const ls = await B.locator('#log li.strike').allTextContents();
        return ls.length ? ls[ls.length - 1] : false;
      });
      const text = li.replace(/^\s*\d+\.\s*/, '').trim();
      if (text !== 'Strike 1 for White') fail(`Black's log reads "${text}", "Strike 1 for White" with no reason expected`);
      await waitText(B, '#strikes', /White 1, Black 0/, "Black's strike count");
    }],

    ["White's page and the answers to it never held Black's board", async () => {
      await whiteKeepsSecrets('after the strike');
      if (blackBoards.size < 3) fail(`only ${blackBoards.size} of Black's boards were seen to compare with`);
    }],

    ["screenshot of White's page after the moves", async () => {
      console.log(`     ${await shot(W, 'serve-play.png')}`);
    }],
  ], dumps);
  for (const p of [lobby, white, black]) await p.context.close();
}

// ---- Run --------------------------------------------------------------------------

try {
  await workbench();
  await lookingGlass();
  console.log('-- Page errors');
  if (pageErrors.length) {
    failures.push({ part: 'pages', name: 'no script errors', msg: pageErrors.join('\n') });
    console.log(`FAIL the pages reported script errors:\n     ${pageErrors.join('\n     ')}`);
  } else {
    ok('no page threw a script error or opened a dialog');
  }
} finally {
  clearTimeout(watchdog);
  await browser.close();
}

console.log(`\n${passed} checks passed, ${failures.length} failed${skipped.length ? `, ${skipped.length} not run after a failure` : ''}.`);
for (const f of failures) console.log(`  failed: ${f.part}: ${f.name}`);
process.exit(failures.length ? 1 : 0);
