// The end screen's standings: each faction's Doom, spellbooks earned and whether it qualified to
// win (all its spellbooks), the winners first.
export function standings(board) {
  const win = new Set(board.winners || []);
  const rows = board.factions.map((f) => {
    const earned = f.spellbooks.filter((b) => b.earned).length;
    const total = Math.max(6, f.spellbooks.length);
    return { f, earned, total, qualified: earned >= 6 };
  }).sort((a, b) => win.has(b.f.id) - win.has(a.f.id) || b.f.doom - a.f.doom);
  const table = document.createElement("table");
  table.id = "standings";
  const head = table.insertRow();
  for (const t of ["", "Faction", "Doom", "Spellbooks", "Qualified"]) head.append(Object.assign(document.createElement("th"), { textContent: t }));
  for (const r of rows) {
    const tr = table.insertRow();
    tr.className = win.has(r.f.id) ? "winner" : "";
    const cells = [win.has(r.f.id) ? "\u2605" : "", r.f.name, String(r.f.doom), `${r.earned} of ${r.total}`, r.qualified ? "yes" : "no"];
    for (const c of cells) tr.insertCell().textContent = c;
    tr.cells[1].style.color = r.f.colour;
  }
  return table;
}
