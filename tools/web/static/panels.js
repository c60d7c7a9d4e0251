// The panels beside the map: status (round, phase, ritual track), the pending decision as
// buttons and each faction's card (the log is log.js's, the battle battle.js's).
import { standings } from "./standings.js";
export function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
  return e;
}

// the question in words, without the player's name in front (it is shown, in colour, already)
const promptOf = (p) => p.question ?? (p.prompt.startsWith(p.player + ": ") ? p.prompt.slice(p.player.length + 2) : p.prompt);
// a faction's name (people read names; ids are for the API)
export const nameOf = (board, id) => (board.factions.find((f) => f.id === id) || {}).name || id;

export function drawStatus(box, board) {
  const r = board.ritual;
  const track = h("span", { class: "track", title: "Ritual of Annihilation track: the cost at each space" },
    ...r.track.map((c, i) => h("span", { class: "space" + (i === r.position ? " here" : "") + (i < r.position ? " past" : "") }, String(c))),
    h("span", { class: "space end" + (r.position >= r.track.length ? " here" : "") }, "\u2620"));
  const colour = Object.fromEntries(board.factions.map((f) => [f.id, f.colour]));
  box.replaceChildren(
    h("span", { class: "chip" }, `Round ${board.round}`),
    h("span", { class: "chip", id: "phase" }, board.phase_name),
    h("span", { class: "chip" }, "first: ", h("b", { style: `color:${colour[board.first] || "inherit"}` }, board.first || "-"),
      board.direction === 1 ? " \u21bb" : " \u21ba"),
    h("span", { class: "chip" }, "Ritual ", track),
    h("span", { class: "chip", title: "Elder Signs left in the bag" }, `bag: ${board.es_bag} Elder Signs`),
  );
}

export function drawDecision(box, board, ui) {
  const p = board.pending;
  if (!p) {
    box.replaceChildren(h("div", { class: "decision over" }, h("h3", {}, "The game is over"), h("p", { id: "result" }, board.result || ""),
      board.over ? standings(board) : null));
    return;
  }
  const colour = Object.fromEntries(board.factions.map((f) => [f.id, f.colour]));
  const who = h("b", { style: `color:${colour[p.player] || "inherit"}` }, nameOf(board, p.player));
  const seat = board.seats[p.player] || "";
  if (!ui.mine) {
    const waiting = seat && seat !== "human" ? `the ${seat} bot is choosing\u2026` : "waiting for this player";
    box.replaceChildren(h("div", { class: "decision others" }, h("p", {}, who, ": ", promptOf(p)), h("p", { class: "muted" }, waiting)));
    return;
  }
  let groups = p.groups || [];
  const filtered = ui.filter ? groups.filter(ui.filter) : groups;
  const buttons = filtered.map((g) => h("button", {
    type: "button", class: "option", "data-answer": g.answer, title: g.count > 1 ? `${g.label}: any of ${g.count} alike` : g.label,
    onclick: () => ui.onAnswer(g.answer),
  }, g.label,
     g.cost ? h("span", { class: "cost" }, ` \u00b7 ${g.cost} Power`) : null));
  box.replaceChildren(h("div", { class: "decision mine" },
    h("p", { class: "prompt" }, who, ": ", promptOf(p)),
    ui.filter ? h("p", { class: "muted" }, `showing the options for ${ui.filterName} `,
      h("button", { type: "button", class: "link", id: "clear-filter", onclick: () => ui.onClear() }, "show all")) : null,
    h("div", { class: "options" }, buttons),
    h("p", { class: "muted hint" }, "Click an option, or an area or a unit on the map."),
    h("p", { id: "why", class: "error", role: "alert" }, ui.message || "")));
}

export function drawFactions(box, board) {
  box.replaceChildren(...board.factions.map((f) => {
    const signs = f.elder_signs.length
      ? (f.own ? f.elder_signs.join(" + ") : `${f.elder_signs.length} face down`) : "none";
    const earned = f.spellbooks.filter((b) => b.earned).length;
    return h("div", { class: "faction" + (board.pending && board.pending.player === f.id ? " active" : ""), style: `--fc:${f.colour}`, "data-faction": f.id },
      h("div", { class: "fhead" }, h("span", { class: "swatch" }), h("b", {}, f.name),
        h("span", { class: "seat" }, board.seats[f.id] || (board.viewer === f.id ? "you" : ""))),
      h("div", { class: "stats" },
        h("span", { title: "Power" }, "\u26a1 ", h("b", { class: "power" }, String(f.power))),
        h("span", { title: "Doom" }, "\u2620 ", h("b", { class: "doom" }, String(f.doom))),
        h("span", { title: "Gates controlled" }, "\u25ce ", String(f.gates)),
        h("span", { title: "Elder Signs", class: "signs" }, "\u2736 ", signs)),
      earned ? h("div", { class: "earned" }, ...f.spellbooks.filter((b) => b.earned).map((b) => h("span", { class: "book", title: b.text }, b.name))) : null,
      h("details", {}, h("summary", {}, `Spellbooks ${earned}/${f.spellbooks.length} · requirements`),
        h("ul", { class: "books" }, ...f.spellbooks.map((b) => h("li", { class: b.earned ? "earned" : "" }, h("b", {}, b.name), b.text ? ` \u2014 ${b.text}` : ""))),
        h("ul", { class: "reqs" }, ...f.requirements.map((r) => h("li", { class: r.met ? "met" : "" }, r.met ? "\u2713 " : "\u2610 ", r.text)))));
  }));
}

export function drawNext(box, board) {
  const n = board.next;
  const colour = Object.fromEntries(board.factions.map((f) => [f.id, f.colour]));
  box.replaceChildren(h("div", { class: "decision others" },
    n ? [h("p", {}, h("b", { style: `color:${colour[n.player] || "inherit"}` }, nameOf(board, n.player)), ": ", promptOf(n)),
         h("p", {}, "answers ", h("b", { id: "next-answer", title: n.answer }, n.answer_words ?? n.answer))]
      : h("p", {}, board.over ? board.result : "the log ends here")));
}
