// hammer-box monitor: the live part of a served page (a bundle has no script). When the server's
// event stream says the page's run (or, on the list, any run) changed, fetch the page's main part
// again, naming the sections it holds so the server sends only the others, and swap in those whose
// signature changed; the rest stay as they are, open <details> and all. The markup comes from this
// server, escaped there; nothing here builds HTML.
const main = document.getElementById('main');
const badge = document.getElementById('livestate');

function say(text, cls) {
  if (!badge) return;
  badge.textContent = text;
  badge.className = `livestate ${cls}`;
}

/** Keep which <details> were open in a section that is being replaced (by their order in it). */
function carryOpen(from, to) {
  const was = [...from.querySelectorAll('details')].map((d) => d.open);
  const now = [...to.querySelectorAll('details')];
  if (was.length !== now.length) return;
  now.forEach((d, i) => {
    d.open = was[i];
  });
}

/**
 * Swap in the fresh sections, in place: a section whose signature is unchanged is not touched, a
 * changed one is replaced where it stands, new ones are inserted in order, gone ones removed.
 * False when the server kept back a section this page no longer has.
 */
function morph(fresh) {
  const old = new Map();
  for (const el of main.children) if (el.id) old.set(el.id, el);
  const wanted = [];
  for (const el of [...fresh.children]) {
    const prev = el.id ? old.get(el.id) : undefined;
    if (prev && el.dataset.sig && prev.dataset.sig === el.dataset.sig) {
      wanted.push(prev);
    } else if (el.hasAttribute('data-keep')) {
      return false;
    } else {
      const node = document.adoptNode(el);
      if (prev) {
        carryOpen(prev, node);
        prev.replaceWith(node);
      }
      wanted.push(node);
    }
  }
  const keep = new Set(wanted);
  for (const el of [...main.children]) if (!keep.has(el)) el.remove();
  let cursor = main.firstElementChild;
  for (const node of wanted) {
    if (node === cursor) cursor = cursor.nextElementSibling;
    else main.insertBefore(node, cursor);
  }
  main.dataset.updated = String(Number(main.dataset.updated || '0') + 1);
  return true;
}

/** The main part again; the sections this page holds are named so the server leaves them out. */
async function fetchMain(withKnown) {
  const known = withKnown ? [...main.children].map((el) => el.dataset.sig).filter(Boolean) : [];
  const res = await fetch(main.dataset.fragment, {
    credentials: 'same-origin',
    cache: 'no-store',
    headers: known.length > 0 ? { 'X-Monitor-Known': known.join(' ') } : {},
  });
  if (res.status === 404) {
    say('gone', 'bad');
    return null;
  }
  if (!res.ok) return null;
  return new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('main');
}

let busy = false;
let again = false;

async function refresh() {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  try {
    const fresh = await fetchMain(true);
    if (fresh && !morph(fresh)) {
      const whole = await fetchMain(false);
      if (whole) morph(whole);
    }
  } catch {
    say('reconnecting…', 'bad');
  } finally {
    busy = false;
    if (again) {
      again = false;
      void refresh();
    }
  }
}

if (main && main.dataset.events && main.dataset.fragment) {
  const events = new EventSource(main.dataset.events);
  let opened = false;
  events.addEventListener('open', () => {
    say('live', 'ok');
    // back after a drop: what changed meanwhile was not announced
    if (opened) void refresh();
    opened = true;
  });
  events.addEventListener('error', () => say('reconnecting…', 'bad'));
  events.addEventListener('change', () => void refresh());
}
