// The battle panel: while a battle is on, the two sides (units by name with their combat and the
// results they took), each side's dice as Kill / Pain / Miss faces, the results still to assign to
// each side, the units killed, and who is choosing what now. Drawn from the board's `battle`.
import { h } from "./panels.js";

const FACE = { kill: "Kill", pain: "Pain", miss: "Miss" };
const RESULT = { eliminate: "eliminated", kill: "Kill", pain: "Pain" };
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function drawBattle(box, board) {
  const b = board.battle;
  box.hidden = !b;
  if (!b) { box.replaceChildren(); return; }
  box.replaceChildren(
    h("h3", {}, "\u2694 Battle in ", h("b", { class: "battle-area" }, b.area_name)),
    h("div", { class: "sides" }, ...b.sides.map(side)),
    b.asking ? h("p", { class: "asking" }, h("b", { style: `color:${colourOf(b, b.asking.player)}` }, b.asking.name), ": ",
      b.asking.question) : null);
}

function colourOf(b, player) {
  return (b.sides.find((s) => s.player === player) || {}).colour || "inherit";
}

function side(s) {
  const rolled = s.faces !== null && s.faces !== undefined;
  return h("div", { class: `side ${s.role}`, style: `--fc:${s.colour}`, "data-side": s.player },
    h("div", { class: "side-head" }, h("span", { class: "swatch" }), h("b", {}, s.name),
      h("span", { class: "muted" }, ` ${s.role}`), h("span", { class: "combat", title: "combat: the dice this side rolls" },
        `combat ${s.combat}`)),
    h("ul", { class: "fighters" }, ...s.units.map((u) => h("li", { class: u.great_old_one ? "goo" : "" },
      u.great_old_one ? "\u2605 " : "", u.name, h("span", { class: "muted" }, ` (${u.combat ?? "?"})`),
      ...u.results.map((r) => h("span", { class: `result ${r}` }, RESULT[r] || r))))),
    s.killed.length ? h("p", { class: "killed" }, "killed: ", s.killed.join(", ")) : null,
    h("div", { class: "dice", title: "a 6 is a Kill, a 4 or 5 a Pain, anything else a Miss" },
      rolled ? (s.faces.length ? s.faces.map((f) => h("span", { class: `die ${f}` }, FACE[f] || f)) : h("span", { class: "muted" }, "no dice"))
        : h("span", { class: "muted" }, "dice not rolled yet"),
      rolled ? h("span", { class: "tally" }, ` ${plural(s.kills, "kill")}, ${plural(s.pains, "pain")}`) : null),
    s.left.length ? h("p", { class: "left" }, `still to assign to ${s.name}'s units: `,
      s.left.map((l) => plural(l.count, l.result)).join(", ")) : null);
}
