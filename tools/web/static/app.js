// The page: the new-game form, a game in play (people and bots), and the replay viewer.
import { get, post, postText, postJSONText, download, setKey, fetchText } from "./api.js";
import { fromAddress, showAddress, remember, forget, drawMyGames, drawShare } from "./links.js";
import { drawMap } from "./board.js";
import { drawStatus, drawDecision, drawFactions, drawNext, nameOf } from "./panels.js";
import { drawBattle } from "./battle.js";
import { LogView } from "./log.js";
import { setupForm } from "./setup.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const S = {
  game: null, replay: null, board: null, viewer: null, lastHuman: null, curtainFor: null,
  sel: null, message: "", paused: false, timer: null, playing: null, busy: false, key: null, events: null,
};
window.necro = S; // for the tests and the curious
const logView = new LogView($("log"),
  (seq) => get(S.replay ? `/api/replays/${S.replay}/lines?before=${seq}` : `/api/games/${S.game}/lines?before=${seq}`),
  (seq) => jumpTo(seq));
S.log = logView;

function toast(text, bad = false) {
  const t = $("toast");
  t.textContent = text;
  t.className = bad ? "show bad" : "show";
  clearTimeout(toast.t);
  toast.t = setTimeout(() => (t.className = ""), 4000);
}

function show(screen) {
  for (const s of ["setup", "board"]) $(`screen-${s}`).hidden = s !== screen;
  $("game-tools").hidden = !(screen === "board" && S.game);
  $("replay-bar").hidden = !(screen === "board" && S.replay);
}

// ---- whose eyes: hot-seat -------------------------------------------------------------------------
function viewerFor(board) {
  const p = board.pending;
  if (p && board.held.includes(p.player)) return p.player; // only the seats this link holds
  if (board.held.length === 1) return board.held[0];
  return S.lastHuman; // between people's turns the last person's view stays (or a spectator's)
}

async function refresh() {
  if (S.replay) return refreshReplay();
  if (!S.game) return;
  if (S.refreshing) { S.again = true; return; }   // a push during a refresh: one more after it
  S.refreshing = true;
  try {
    do { S.again = false; await redraw(); } while (S.again);
  } finally { S.refreshing = false; }
}

async function redraw() {
  let board = await get(`/api/games/${S.game}?as=${encodeURIComponent(S.viewer || "")}`);
  const want = viewerFor(board);
  if (want !== S.viewer) {
    S.viewer = want;
    if (board.humans.length > 1 && want && want !== S.lastHuman && S.lastHuman !== null) {
      S.curtainFor = want; // another person takes the seat: hide the board until they are ready
    }
    board = await get(`/api/games/${S.game}?as=${encodeURIComponent(want || "")}`);
  }
  if (want) S.lastHuman = want;
  S.board = board;
  render();
  scheduleBot();
  drawAuto();
}

// the seat's auto-answer setting is the server's (it answers for the seat, through the game's log):
// a decision whose options are all alike, and, if asked, the end of a turn with only free actions left
function drawAuto() {
  const a = S.board && S.board.auto;
  for (const id of ["auto-one", "auto-end"]) $(id).parentElement.hidden = !a;
  if (!a) return;
  $("auto-one").checked = a.one_option;
  $("auto-end").checked = a.end_turn;
}

async function setAuto() {
  try {
    await post(`/api/games/${S.game}/auto`, { as: S.viewer, one_option: $("auto-one").checked, end_turn: $("auto-end").checked });
  } catch (e) { toast(e.message, true); }
  await refresh();
}

function render() {
  const b = S.board;
  if (!b) return;
  if (S.curtainFor) {
    $("curtain-text").textContent = `Pass the screen to ${S.curtainFor}. Only they should look now.`;
    $("curtain").hidden = false;
    $("screen-board").classList.add("veiled");
    return;
  }
  $("curtain").hidden = true;
  $("screen-board").classList.remove("veiled");
  const mine = !S.replay && b.pending && b.pending.options !== undefined && b.seats[b.pending.player] === "human" && b.pending.player === S.viewer && b.held.includes(S.viewer);
  const groups = mine ? b.pending.groups : [];
  const filter = S.sel ? (g) => matchesSel(g, S.sel) : null;
  const shown = filter ? groups.filter(filter) : groups;
  const ui = {
    mine, filter, filterName: S.sel ? S.sel.name : "", message: S.message,
    choosable: new Set(shown.flatMap((g) => g.areas)), choosableUnits: new Set(shown.flatMap((g) => g.units)),
    selectedArea: S.sel && S.sel.area,
    onArea: (a) => clickArea(a), onUnits: (ids, area) => clickUnits(ids, area),
    onAnswer: (ans) => answer(ans), onClear: () => { S.sel = null; render(); },
  };
  drawStatus($("status"), b);
  if (!S.replay) $("btn-pause").textContent = b.paused ? "Resume bots" : "Pause bots";
  drawMap($("map"), b, ui);
  if (S.replay) drawNext($("decision"), b);
  else drawDecision($("decision"), b, ui);
  drawBattle($("battle"), b);
  drawFactions($("factions"), b);
  logView.show(b);
  if (S.replay) {
    $("rp-pos").textContent = `step ${b.step} of ${b.total} \u00b7 round ${b.round}` + (b.digest_ok === true ? " \u00b7 digest matches" : b.digest_ok === false ? " \u00b7 DIGEST DIFFERS" : "");
  }
}

function matchesSel(g, sel) {
  if (sel.units && !g.units.some((u) => sel.units.includes(u))) return false;
  return !sel.area || g.areas.includes(sel.area);
}

// ---- answering -----------------------------------------------------------------------------------------
async function answer(ans) {
  if (S.busy) return;
  S.busy = true;
  try {
    await post(`/api/games/${S.game}/answer`, { as: S.viewer, answer: ans });
    S.sel = null;
    S.message = "";
  } catch (e) {
    S.message = e.message;
  } finally {
    S.busy = false;
  }
  await refresh();
}

async function explain(ans) {
  if (!S.game) return;
  const r = await post(`/api/games/${S.game}/why`, { answer: ans });
  S.message = r.legal ? "" : r.message;
  render();
}

function notMine() {
  const p = S.board && S.board.pending;
  if (!p) { toast("The game is over."); return true; }
  if (S.replay) return true;
  if (p.player !== S.viewer || S.board.seats[p.player] !== "human" || !S.board.held.includes(p.player)) {
    toast(`It is ${nameOf(S.board, p.player)}'s decision, not yours.`, true);
    return true;
  }
  return false;
}

function clickArea(area) {
  if (notMine()) return;
  const groups = S.board.pending.groups;
  let cand = groups.filter((g) => g.areas.includes(area) && (!S.sel || matchesSel(g, S.sel)));
  const ending = cand.filter((g) => g.areas[g.areas.length - 1] === area);
  if (S.sel && ending.length) cand = ending;
  if (cand.length === 1) return answer(cand[0].answer);
  if (cand.length > 1) {
    const name = S.board.map.areas.find((a) => a.id === area).name;
    S.sel = S.sel && S.sel.units ? { units: S.sel.units, area, name: `${S.sel.name} to ${name}` } : { area, name };
    S.message = "";
    render();
    return;
  }
  S.sel = null;
  explain(probe(area));
}

// what a click on an area no option names would have meant: on your action, a summon there (so
// the engine can say why not, e.g. no Gate of yours there); else the area itself
function probe(area) {
  const p = S.board.pending;
  if (p.kind !== "action") return area;
  const g = p.groups.find((x) => x.answer.startsWith("summon ")) || p.groups.find((x) => x.answer.startsWith("recruit "));
  return g ? `${g.answer.split(" ").slice(0, 2).join(" ")} ${area}` : area;
}

function clickUnits(ids, area) {
  if (notMine()) return;
  const groups = S.board.pending.groups;
  const cand = groups.filter((g) => g.units.some((u) => ids.includes(u)) && (!S.sel || !S.sel.units || matchesSel(g, S.sel)));
  if (cand.length === 1) {
    const g = cand[0];
    const exact = g.options.find((o) => ids.some((id) => o.endsWith(`#${id}`)));
    return answer(exact || g.answer);
  }
  if (cand.length > 1) {
    const u = S.board.units.find((x) => x.id === ids[0]);
    S.sel = { units: ids, area, name: `${u ? u.name : "the unit"} in ${area}` };
    S.message = "";
    render();
    return;
  }
  clickArea(area);
}

// ---- bots at a watchable pace ---------------------------------------------------------------------
function scheduleBot() {
  clearTimeout(S.timer);
  if (!S.board || !S.board.bot_to_move || S.board.paused || !S.board.held.length || S.curtainFor) return;
  const pace = Number(params.get("pace") ?? $("pace").value);
  S.timer = setTimeout(async () => {
    try { await post(`/api/games/${S.game}/bot`); } catch (e) { toast(e.message, true); return; }
    await refresh();
  }, pace);
}

// ---- games: new, undo, save, load, log ----------------------------------------------------------
async function startGame(id, key, links) {
  Object.assign(S, { game: id, key, replay: null, viewer: null, lastHuman: null, curtainFor: null, sel: null, message: "" });
  setKey(key);
  logView.reset();
  clearInterval(S.playing);
  showAddress(id, key);
  $("share").hidden = true;
  if (links && Object.keys(links.seats).length > 1 && links.mine !== undefined) drawShare($("share"), id, links);
  show("board");
  try {
    await refresh();
  } catch (e) {
    toast(`cannot open the game: ${e.message}`, true);
    if (e.code === "refused") forget(id, key);
    S.game = null;
    show("setup");
    return;
  }
  listen();
  const b = S.board;
  remember(id, key, `${b.players.join(", ")}: ${b.held.length ? b.held.join(", ") : "spectator"}`);
}

// push: the server names each change of the game; the page redraws its own view
function listen() {
  if (S.events) S.events.close();
  S.events = new EventSource(`/api/games/${encodeURIComponent(S.game)}/events?key=${encodeURIComponent(S.key)}`);
  S.events.onmessage = () => { if (S.board && !S.busy) refresh().catch((e) => toast(e.message, true)); };
}

async function undo() {
  try {
    const r = await post(`/api/games/${S.game}/undo`, {});
    toast(`took back ${r.undone} decision(s)`);
    S.sel = null; S.message = "";
    S.curtainFor = null;
  } catch (e) { toast(e.message, true); }
  await refresh();
}

async function jumpTo(seq) {
  if (S.replay) return refreshReplay(`event=${seq}`);
  if (!confirm("Go back to just after this line? Later decisions are taken back.")) return;
  try {
    const r = await post(`/api/games/${S.game}/undo`, { to_event: seq });
    toast(`took back ${r.undone} decision(s)`);
    S.sel = null; S.message = ""; S.curtainFor = null;
  } catch (e) { toast(e.message, true); }
  await refresh();
}

async function saveGame() {
  try {
    download("necronomicon-save.json", await fetchText(`/api/games/${S.game}/save`));   // as written: no digits lost
  } catch (e) { toast(e.message, true); }
}

async function saveLog() {
  try {
    download("necronomicon-log.jsonl", await fetchText(`/api/games/${S.game}/log`), "text/plain");
  } catch (e) { toast(e.message, true); }
}

async function loadSave(file) {
  try {
    const r = await postJSONText("/api/load", `{"save": ${await file.text()}}`);
    await startGame(r.id, r.links.mine, r.links);
    toast("save loaded");
  } catch (e) { toast(`cannot load: ${e.message}`, true); }
}

// ---- replays -----------------------------------------------------------------------------------------
async function openReplay(text) {
  try {
    const r = await postText("/api/replays", text);
    if (S.events) S.events.close();
    Object.assign(S, { game: null, replay: r.id, total: r.total, sel: null, curtainFor: null });
    logView.reset();
    clearTimeout(S.timer);
    show("board");
    await refreshReplay("step=0");
  } catch (e) { toast(`cannot replay: ${e.message}`, true); }
}

async function refreshReplay(q = "") {
  S.board = await get(`/api/replays/${S.replay}${q ? "?" + q : ""}`);
  render();
}

function replayStep(delta) { return refreshReplay(`step=${Math.max(0, S.board.step + delta)}`); }

function togglePlay() {
  if (S.playing) { clearInterval(S.playing); S.playing = null; $("rp-play").textContent = "Play"; return; }
  $("rp-play").textContent = "Pause";
  const pace = Number(params.get("pace") ?? $("pace").value) || 0;
  S.playing = setInterval(async () => {
    if (S.board.step >= S.board.total) { togglePlay(); return; }
    if (S.stepping) return;
    S.stepping = true;
    try { await replayStep(1); } finally { S.stepping = false; }
  }, Math.max(pace, 30));
}

// ---- wiring -------------------------------------------------------------------------------------------
$("btn-new").addEventListener("click", () => {
  clearTimeout(S.timer); clearInterval(S.playing); if (S.events) S.events.close();
  S.game = null; S.replay = null; history.replaceState(null, "", "/"); drawMyGames($("my-games")); show("setup");
});
$("btn-undo").addEventListener("click", undo);
$("btn-save").addEventListener("click", saveGame);
$("btn-log").addEventListener("click", saveLog);
$("btn-pause").addEventListener("click", async () => {
  try { await post(`/api/games/${S.game}/pause`, { paused: !S.board.paused }); } catch (e) { toast(e.message, true); }
  await refresh();
});
$("auto-one").addEventListener("change", setAuto);
$("auto-end").addEventListener("change", setAuto);
$("share-close").addEventListener("click", () => { $("share").hidden = true; });
window.addEventListener("hashchange", () => { const a = fromAddress(); if (a && (a.game !== S.game || a.key !== S.key)) startGame(a.game, a.key); });
$("pace").addEventListener("change", scheduleBot);
$("file-save").addEventListener("change", (e) => { if (e.target.files[0]) loadSave(e.target.files[0]); e.target.value = ""; });
$("file-log").addEventListener("change", async (e) => { if (e.target.files[0]) await openReplay(await e.target.files[0].text()); e.target.value = ""; });
$("curtain-go").addEventListener("click", () => { S.curtainFor = null; render(); scheduleBot(); });
$("rp-start").addEventListener("click", () => refreshReplay("step=0"));
$("rp-back").addEventListener("click", () => replayStep(-1));
$("rp-next").addEventListener("click", () => replayStep(1));
$("rp-end").addEventListener("click", () => refreshReplay(`step=${S.board.total}`));
$("rp-go").addEventListener("click", () => refreshReplay(`round=${$("rp-round").value}`));
$("rp-play").addEventListener("click", togglePlay);
$("log-start").addEventListener("click", () => logView.toStart().catch((e) => toast(e.message, true)));
document.addEventListener("keydown", (e) => { if (e.key === "Escape" && S.sel) { S.sel = null; render(); } });

setupForm($("setup-form"), (r) => startGame(r.id, r.links.mine, r.links), (msg) => ($("setup-error").textContent = msg));
const opened = fromAddress();
if (opened) startGame(opened.game, opened.key);
else { drawMyGames($("my-games")); show("setup"); }
