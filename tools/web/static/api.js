// The JSON API of `necro serve`: every call returns the parsed body or throws an Error whose
// message is the server's (the engine's) reason. A game's calls carry its link's key.
let key = "";
export function setKey(k) { key = k || ""; }

// `raw`: the body is text sent as it is, as `raw` (a content type); else `body` is sent as JSON
export async function call(method, path, body, raw = null) {
  const init = { method, headers: {} };
  if (key) init.headers["X-Necro-Key"] = key;
  if (body !== undefined) {
    init.body = raw ? body : JSON.stringify(body);
    init.headers["Content-Type"] = raw || "application/json";
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data;
  try { data = JSON.parse(text); } catch { data = { message: text }; }
  if (!res.ok) {
    const err = new Error(data.message || `${res.status} ${res.statusText}`);
    err.code = data.error;
    throw err;
  }
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body);
export async function fetchText(path) {
  const res = await fetch(path, { headers: key ? { "X-Necro-Key": key } : {} });
  const text = await res.text();
  if (!res.ok) { let m = text; try { m = JSON.parse(text).message; } catch { /* plain text */ } throw new Error(m); }
  return text;
}
export const postText = (path, text) => call("POST", path, text, "text/plain");
// JSON text sent untouched: a save's numbers (the generator's 64-bit state) would lose digits in
// a JavaScript number, and the server refuses a save that is not its answers' position exactly
export const postJSONText = (path, text) => call("POST", path, text, "application/json");

export function download(name, text, type = "application/json") {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 0);
}
