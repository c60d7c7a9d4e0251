// The new-game form: expansions, ruleset, player count, seed, and per seat a faction and who plays it.
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
    players();
  }

  function players() {
    const r = setup.rulesets.find((x) => x.id === rs.value);
    const keep = Number(np.value);
    np.replaceChildren(...r.players.map((n) => opt(n, String(n), keep ? n === keep : n === Math.min(...r.players.filter((k) => k >= 3), Math.max(...r.players)))));
    seatRows();
  }

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
      fs.append(...setup.factions.map((f) => opt(f.id, f.name, f.id === defaults[i % defaults.length])));
      const ss = document.createElement("select");
      ss.name = `seat-${i}`; ss.className = "seat-pick";
      ss.append(...setup.seats.map((s) => opt(s, s, s === (i === 0 ? "human" : "heuristic"))));
      const sw = document.createElement("span");
      sw.className = "swatch";
      const paint = () => { sw.style.background = setup.factions.find((f) => f.id === fs.value).colour; };
      fs.addEventListener("change", paint); paint();
      row.append(label, sw, fs, ss);
      rows.push(row);
    }
    seats.replaceChildren(...rows);
  }

  rs.addEventListener("change", players);
  np.addEventListener("change", seatRows);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    onError("");
    const factions = [...seats.querySelectorAll(".faction-pick")].map((s) => s.value);
    const who = [...seats.querySelectorAll(".seat-pick")].map((s) => s.value);
    const spec = {
      ruleset: rs.value, factions, seed: form.querySelector("#f-seed").value,
      seats: Object.fromEntries(factions.map((f, i) => [f, who[i]])),
      expansions: [...exps.querySelectorAll("input:checked")].map((x) => x.value),
    };
    // not hot-seat: this screen plays the first person's seat; the others get their own links
    if (!form.querySelector("#f-hotseat").checked) spec.mine = factions.filter((f, i) => who[i] === "human").slice(0, 1);
    try { onStarted(await post("/api/games", spec)); } catch (err) { onError(err.message); }
  });
  try {
    await load();
    form.querySelector("#btn-start").disabled = false;   // not before the form knows the rulesets
  } catch (err) { onError(err.message); }
}
