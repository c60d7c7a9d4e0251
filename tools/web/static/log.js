// The whole log: a board brings its last page of lines; earlier pages are asked for when the reader
// scrolls to the top (or asks for the first line), back to the game's first line. Lines are added
// and removed in place (never the whole list redrawn), so a long game's log stays fast. A click on
// a line goes back to just after it.

export class LogView {
  // box: the <ol>; fetchPage(before) -> {lines, more}: the page before the line numbered `before`
  constructor(box, fetchPage, onJump) {
    Object.assign(this, { box, fetchPage, onJump, lines: [], more: false, loading: null });
    this.earlier = document.createElement("li");
    this.earlier.className = "earlier";
    this.earlier.textContent = "\u2191 earlier lines";
    this.earlier.addEventListener("click", () => this.loadEarlier());
    box.addEventListener("scroll", () => { if (box.scrollTop < 40 && this.more) this.loadEarlier(); });
  }

  // a new board: its page replaces the lines from its first one on (an undo drops later ones)
  show(board) {
    const page = board.log || [];
    const from = page.length ? page[0].seq : Infinity;
    const keep = this.lines.filter((l) => l.seq < from);
    if (keep.length && keep.length < this.lines.length) this.lines = keep.concat(page);   // the held lines run into the page
    else { this.lines = page.slice(); this.more = !!board.log_more; }
    this.render(true);
  }

  // forget everything (another game, another replay)
  reset() { this.lines = []; this.more = false; this.box.replaceChildren(); }

  async loadEarlier() {
    if (this.loading || !this.more || !this.lines.length) return this.loading;
    this.loading = (async () => {
      try {
        const page = await this.fetchPage(this.lines[0].seq);
        const oldHeight = this.box.scrollHeight, oldTop = this.box.scrollTop;
        this.lines = page.lines.concat(this.lines);
        this.more = page.more;
        this.render(false);
        this.box.scrollTop = oldTop + (this.box.scrollHeight - oldHeight);   // the reader's line stays put
      } finally { this.loading = null; }
    })();
    return this.loading;
  }

  // every earlier page, then the first line in view
  async toStart() {
    while (this.more) await this.loadEarlier();
    this.box.scrollTop = 0;
  }

  render(followEnd) {
    const box = this.box;
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
    const shown = [...box.querySelectorAll("li[data-seq]")];
    // the lines already drawn that are still the same at the same place stay
    let start = 0;
    while (start < shown.length && start < this.lines.length && Number(shown[start].dataset.seq) === this.lines[start].seq
           && shown[start].textContent === this.lines[start].text) start++;
    let lead = 0;   // lines added before the first drawn one (an earlier page)
    if (start === 0 && shown.length) {
      const first = Number(shown[0].dataset.seq);
      lead = this.lines.findIndex((l) => l.seq === first);
      if (lead > 0 && shown.every((s, i) => this.lines[lead + i] && Number(s.dataset.seq) === this.lines[lead + i].seq)) {
        const frag = document.createDocumentFragment();
        for (const l of this.lines.slice(0, lead)) frag.append(this.line(l));
        shown[0].before(frag);
        start = lead + shown.length;
      } else lead = 0;
    }
    if (!lead) {
      for (const li of shown.slice(start)) li.remove();
      const frag = document.createDocumentFragment();
      for (const l of this.lines.slice(start)) frag.append(this.line(l));
      box.append(frag);
    }
    if (this.more) box.prepend(this.earlier); else this.earlier.remove();
    if (followEnd && atEnd) box.scrollTop = box.scrollHeight;
  }

  line(l) {
    const li = document.createElement("li");
    li.className = `ev-${l.type}`;
    li.dataset.seq = l.seq;
    li.title = "click: go back to just after this";
    li.textContent = l.text;
    li.addEventListener("click", () => this.onJump(l.seq));
    return li;
  }
}
