// A game's links: the page's address names a game and a key (#game=ID&key=KEY: the fragment is
// never sent to the server nor to another site), the links to send friends, and the games this
// browser holds links to (kept in localStorage).
const STORE = "necro.games";

export function fromAddress() {
  const q = new URLSearchParams(location.hash.slice(1));
  return q.get("game") ? { game: q.get("game"), key: q.get("key") || "" } : null;
}

export function linkTo(game, key) {
  return `${location.origin}/#game=${encodeURIComponent(game)}&key=${encodeURIComponent(key)}`;
}

export function showAddress(game, key) {
  history.replaceState(null, "", `/#game=${encodeURIComponent(game)}&key=${encodeURIComponent(key)}`);
}

export function remembered() {
  try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch { return []; }
}

export function remember(game, key, label) {
  const list = remembered().filter((g) => !(g.game === game && g.key === key));
  list.unshift({ game, key, label, when: new Date().toISOString().slice(0, 16).replace("T", " ") });
  localStorage.setItem(STORE, JSON.stringify(list.slice(0, 50)));
}

export function forget(game, key) {
  localStorage.setItem(STORE, JSON.stringify(remembered().filter((g) => !(g.game === game && g.key === key))));
}

function li(text, href) {
  const e = document.createElement("li");
  const a = document.createElement("a");
  a.href = href; a.textContent = text;
  e.append(a);
  return e;
}

// the list on the setup screen: each game this browser holds a link to
export function drawMyGames(box) {
  const list = remembered();
  box.hidden = !list.length;
  box.querySelector("ol").replaceChildren(...list.map((g) => li(`${g.label} (${g.when})`, linkTo(g.game, g.key))));
}

// the links a new game hands out: one per person's seat, one for spectators
export function drawShare(box, game, links) {
  const rows = Object.entries(links.seats).map(([p, k]) => li(`${p}: ${linkTo(game, k)}`, linkTo(game, k)));
  rows.push(li(`spectators: ${linkTo(game, links.spectator)}`, linkTo(game, links.spectator)));
  for (const r of rows) r.querySelector("a").target = "_blank";
  box.querySelector("ol").replaceChildren(...rows);
  box.hidden = false;
}
