// The new-game form: expansions, ruleset, player count, seed, map layout, per seat a faction (or one
// drawn at random) and who plays it, seating order, first player and Independents. The server offers
// the choices and checks every one (tools/web/new_game.py); no rule is decided here.
import { get, post } from "./api.js";

function opt(value, text, selected = false) {
  const o = document.createElement("option");
  o.value = value; o.textContent = text; o.selected = selected;
  return o;
}

export async function setupForm(form, onStarted, onError) {
  let setup = null;
  const exps = form.querySelector("#f-expansions"), rs = form.querySelector("#f-ruleset");
  const np = form.querySelector("#f-players"), seats = form.querySelector("#f-seats");
  const layout = form.querySelector("#f-layout"), first = form.querySelector("#f-first");
  const indeps = form.querySelector("#f-independents");

  async function load(expansions) {
    const q = expansions === undefined ? "" : `?expansions=${encodeURIComponent(expansions.join(","))}`;
    setup = await get(`/api/setup${q}`);
    const chosen = expansions ?? setup.chosen_expansions;
    exps.replaceChildren(...setup.expansions.map((e) => {
      const l = document.createElement("label");
      const c = document.createElement("input");
      c.type = "checkbox"; c.value = e; c.checked = chosen.includes(e); c.name = "expansion";
      c.addEventListener("change", () => load([...exps.querySelectorAll("input:checked")].map((x) => x.value)).catch((err) => onError(err.message)));
      l.append(c, " " + e);
      return l;
    }));
    if (!setup.expansions.length) exps.textContent = "none available";
    const keep = rs.value;
    rs.replaceChildren(...setup.rulesets.map((r) => opt(r.id, r.name, keep ? r.id === keep : r.default)));
    indeps.replaceChildren(...setup.independents.map((c) => {
      const l = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox"; box.value = c.id; box.name = "independent";
      l.append(box, " " + c.name);
      return l;
    }));
    form.querySelector("#f-independents-row").hidden = !setup.independents.length;
    players();
  }

  function layouts() {
    const r = setup.rulesets.find((x) => x.id === rs.value);
    const offered = (r.layouts || {})[np.value] || [];
    layout.replaceChildren(...offered.map((l, i) => opt(l.id, l.name, i === 0)));
  }

  function firsts() {
    const keep = first.value;
    const chosen = [...seats.querySelectorAll(".faction-pick")].map((s) => s.value).filter((f) => f !== setup.random);
    const name = (id) => setup.factions.find((f) => f.id === id).name;
    first.replaceChildren(opt("", "as the rulebook recommends", keep === ""), opt(setup.random, "random (by the seed)", keep === setup.random),
      ...chosen.map((f) => opt(f, name(f), keep === f)));
  }

  function players() {
    const r = setup.rulesets.find((x) => x.id === rs.value);
    const keep = Number(np.value);
    np.replaceChildren(...r.players.map((n) => opt(n, String(n), keep ? n === keep : n === Math.min(...r.players.filter((k) => k >= 3), Math.max(...r.players)))));
    seatRows();
  }

  function countChanged() { layouts(); seatRows(); }

  function seatRows() {
    const r = setup.rulesets.find((x) => x.id === rs.value);
    const n = Number(np.value);
    const defaults = (r.default_factions || {})[String(n)] || setup.factions.filter((f) => !f.expansion).map((f) => f.id).slice(0, n);
    const rows = [];
    for (let i = 0; i < n; i++) {
      const row = document.createElement("div");
      row.className = "row seat";
      const label = document.createElement("label");
      label.textContent = `Seat ${i + 1}`;
      const fs = document.createElement("select");
      fs.name = `faction-${i}`; fs.className = "faction-pick";
      fs.append(...setup.factions.map((f) => opt(f.id, f.name, f.id === defaults[i % defaults.length])),
        opt(setup.random, "random (by the seed)"));
      const ss = document.createElement("select");
      ss.name = `seat-${i}`; ss.className = "seat-pick";
      ss.append(...setup.seats.map((s) => opt(s, s, s === (i === 0 ? "human" : "heuristic"))));
      const sw = document.createElement("span");
      sw.className = "swatch";
      const paint = () => { const f = setup.factions.find((x) => x.id === fs.value); sw.style.background = f ? f.colour : "transparent"; };
      fs.addEventListener("change", () => { paint(); firsts(); }); paint();
      row.append(label, sw, fs, ss);
      rows.push(row);
    }
    seats.replaceChildren(...rows);
    layouts();
    firsts();
  }

  rs.addEventListener("change", players);
  np.addEventListener("change", countChanged);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    onError("");
    const factions = [...seats.querySelectorAll(".faction-pick")].map((s) => s.value);
    const who = [...seats.querySelectorAll(".seat-pick")].map((s) => s.value);
    const spec = {
      ruleset: rs.value, factions, seed: form.querySelector("#f-seed").value, seats: who,
      expansions: [...exps.querySelectorAll("input:checked")].map((x) => x.value),
      layout: layout.value, seating: form.querySelector("#f-seating").value, first: first.value,
    };
    const ticked = [...indeps.querySelectorAll("input:checked")].map((x) => x.value);
    if (ticked.length) spec.independents = ticked;
    // not hot-seat: this screen plays the first person's seat (by row: a drawn faction is not known yet)
    if (!form.querySelector("#f-hotseat").checked) spec.mine = who.map((w, i) => (w === "human" ? i : -1)).filter((i) => i >= 0).slice(0, 1);
    try { onStarted(await post("/api/games", spec)); } catch (err) { onError(err.message); }
  });
  try {
    await load();
    form.querySelector("#btn-start").disabled = false;   // not before the form knows the rulesets
  } catch (err) { onError(err.message); }
}
