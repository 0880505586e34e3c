// fairysolve serve: the Looking-Glass lobby. Creates a game and shows its two private
// links, one per player.
'use strict';

const $ = (id) => document.getElementById(id);

/** The array asked for one side: null for random (the server draws it), 518 for the
 *  standard array, or the number typed. */
function arrayChoice(side) {
  const kind = document.querySelector(`input[name=${side}-kind]:checked`).value;
  if (kind === 'random') return null;
  if (kind === 'standard') return 518;
  const n = Number($(`${side}-number`).value);
  return Number.isInteger(n) ? n : -1; // the server says what is wrong with it
}

function clearErrors() {
  for (const id of ['err-white_array', 'err-black_array', 'err-create']) $(id).textContent = '';
}

async function create(event) {
  event.preventDefault();
  clearErrors();
  const body = {
    white_array: arrayChoice('white'),
    black_array: arrayChoice('black'),
    forfeit: document.querySelector('input[name=rule]:checked').value === 'forfeit',
  };
  $('create').disabled = true;
  const r = await api('POST', '/api/games', body);
  $('create').disabled = false;
  if (!r.ok) {
    const target = $('err-' + (r.data.field || 'create')) || $('err-create');
    target.textContent = r.data.error;
    return;
  }
  // The server gives paths; a player needs the whole address.
  const white = location.origin + r.data.white;
  const black = location.origin + r.data.black;
  $('link-white').value = white;
  $('link-black').value = black;
  $('open-white').href = white;
  $('open-black').href = black;
  $('game-id').textContent = `Game ${r.data.game}` + (body.forfeit ? ' · forfeit rule' : ' · strike rule');
  $('links').hidden = false;
}

$('create-form').addEventListener('submit', create);
$('copy-white').addEventListener('click', (e) => copyText($('link-white').value, e.currentTarget));
$('copy-black').addEventListener('click', (e) => copyText($('link-black').value, e.currentTarget));
// Typing a number chooses "number" for that side.
for (const side of ['white', 'black']) {
  $(`${side}-number`).addEventListener('input', () => {
    document.querySelector(`input[name=${side}-kind][value=number]`).checked = true;
  });
}
