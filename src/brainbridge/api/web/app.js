// The brainbridge web app: a few views over the JSON API of `brain serve`, routed by the
// URL fragment (#/sessions, #/entity/Person/Ada…). No framework and no build step.

const TOKEN_KEY = "brainbridge-token";
const view = document.getElementById("view");

// `brain serve` prints http://127.0.0.1:8765/#token=…: the fragment never reaches the
// server; the token moves to this tab's session storage and the address bar loses it.
function takeToken() {
  const m = location.hash.match(/[#&?]token=([^&]+)/);
  if (m) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + "#/");
  }
  return sessionStorage.getItem(TOKEN_KEY) || "";
}
let token = takeToken();

class Unauthorized extends Error {}

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) =>
  ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const enc = encodeURIComponent;
const plural = (n, one, many) => `${n} ${n === 1 ? one : (many || one + "s")}`;
const entityHref = (type, name) => `#/entity/${enc(type)}/${enc(name)}`;
// Every list marks what a later statement replaced or what has ended.
const replacedMark = (e) => e.replaced ? '<span class="chip ended replaced">replaced</span>' : "";
const entityLink = (e) => `<a href="${entityHref(e.type, e.name)}">${esc(e.title || e.name)}</a>`
  + `<span class="type">${esc(e.type)}</span>${replacedMark(e)}`;
// What a person calls an item: a session by its title, an exchange by what was said.
function titleOf(e) {
  const a = e.attributes || {};
  if (e.type === "Chat_Exchange") return a.user_message || e.name;
  if (e.type === "Chat_Session") return a.title || `Conversation ${String(e.name).slice(0, 8)}`;
  return e.title || e.name;
}
// The curator's tools in plain words.
const CURATOR_WORDS = {update_title: "named the conversation", update_summary: "updated the summary",
  write_brain_entity: "saved to the brain", log_activity: "logged the day's activity"};
const curatorWords = (names) => (names || []).map((n) => CURATOR_WORDS[n] || String(n).replaceAll("_", " "));

async function api(path, opts = {}) {
  const r = await fetch(path, {...opts, headers: {
    "Authorization": "Bearer " + token, "Content-Type": "application/json", ...(opts.headers || {})}});
  if (r.status === 401) throw new Unauthorized();
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || r.statusText || `HTTP ${r.status}`);
  return body;
}

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (isNaN(d)) return esc(iso);
  const days = Math.floor((Date.now() - d) / 86400000);
  const date = d.toLocaleDateString(undefined, {year: "numeric", month: "short", day: "numeric"});
  return days <= 0 ? `today, ${d.toLocaleTimeString(undefined, {hour: "2-digit", minute: "2-digit"})}`
    : days === 1 ? "yesterday" : days < 7 ? `${days} days ago` : date;
}

// The context block is Markdown: headings, bullets and bold are drawn, nothing else.
function markdown(text) {
  const inline = (s) => esc(s).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>").replace(/_(.+?)_/g, "<em>$1</em>");
  let html = "", list = false;
  for (const line of String(text || "").split("\n")) {
    const bullet = line.match(/^\s*[-*] (.*)$/);
    if (list && !bullet) { html += "</ul>"; list = false; }
    const h = line.match(/^(#{2,4}) (.*)$/);
    if (h) html += `<h${h[1].length + 1}>${inline(h[2])}</h${h[1].length + 1}>`;
    else if (bullet) { if (!list) { html += "<ul>"; list = true; } html += `<li>${inline(bullet[1])}</li>`; }
    else if (line.trim()) html += `<p>${inline(line)}</p>`;
  }
  return `<div class="block-md">${html}${list ? "</ul>" : ""}</div>`;
}

function show(html, title) {
  view.innerHTML = html;
  document.title = title ? `${title} · brainbridge` : "brainbridge";
}

function tokenHelp(wrong) {
  show(`<section><h1>Open the page with its token</h1>
    <p>${wrong ? "That token was not accepted." : "This page shows your brain, so it needs the token of <code>brain serve</code>."}</p>
    <p><code>brain serve</code> prints the address with the token when it starts:
      <code>${esc(location.origin)}/#token=…</code>. Open that address, or paste the token
      from <code>server.json</code> in your brain folder (the <code>"token"</code> field) here:</p>
    <form class="row" id="token-form"><label class="muted" for="token-input">Token</label>
      <input id="token-input" autocomplete="off" spellcheck="false" required>
      <button type="submit">Open</button></form></section>`, "Token needed");
  document.getElementById("token-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    token = document.getElementById("token-input").value.trim();
    sessionStorage.setItem(TOKEN_KEY, token);
    route();
  });
}

async function loadStats() {
  try {
    const s = await api("/stats");
    // On a team brain the counts are what this person sees: say whose they are.
    document.getElementById("stats").textContent = [...(s.person ? [`you: ${s.person}`] : []),
      plural(s.entities, "entity", "entities"), plural(s.exchanges, "exchange"),
      plural(s.sessions, "session"), plural(s.relations, "relation")].join(" · ");
  } catch (e) { document.getElementById("stats").textContent = ""; }
}

// -- views ------------------------------------------------------------------

async function home() {
  const list = await api("/sessions?limit=20");
  show(`<div class="grid"><div>
    <section><h2>Search your brain</h2>
      <form class="row" id="search-form" role="search"><label class="sr-only" for="q">Search</label>
        <input id="q" name="q" placeholder="people, projects, what was said…" autocomplete="off">
        <button type="submit">Search</button></form></section>
    <section><h2>What the bridge would load</h2>
      <form class="row" id="enrich-form"><label class="sr-only" for="msg">Message</label>
        <input id="msg" placeholder="a message, e.g. “how is Kevin's cohort going?”">
        <button type="submit">Preview</button></form>
      <div id="enrichment"></div></section></div>
    <aside><section><h2>Recent sessions</h2>${sessionList(list.slice(0, 8))}
      <p><a href="#/sessions">All sessions</a></p></section></aside></div>`, "Home");
  document.getElementById("search-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.hash = "#/search?q=" + enc(document.getElementById("q").value);
  });
  document.getElementById("enrich-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = document.getElementById("enrichment");
    try {
      const r = await api("/enrich", {method: "POST", body: JSON.stringify({message: document.getElementById("msg").value})});
      out.innerHTML = `<p>Judgment: <b id="judgment">${esc(r.judgment)}</b>
        <span class="muted small">${esc((r.reasons || []).join("; "))}</span></p>`
        + (r.block ? `<div id="block" class="card">${markdown(r.block)}</div>` : `<p class="muted">No context would be injected.</p>`);
    } catch (e) { out.innerHTML = `<p class="err">${esc(e.message)}</p>`; }
  });
}

function sessionList(list) {
  const shown = list.filter((s) => s.message_count > 0);
  if (!shown.length) return `<p class="muted">No conversations yet.</p>`;
  return `<ul class="plain" id="sessions">` + shown.map((s) => `<li class="session">
    <a href="#/session/${enc(s.id)}">${esc(s.title || "Untitled conversation")}</a>
    <div class="muted small">${when(s.updated_at)} · ${plural(s.message_count, "turn")}</div>
    ${s.summary ? `<div class="small">${esc(s.summary.slice(0, 160))}${s.summary.length > 160 ? "…" : ""}</div>` : ""}
    </li>`).join("") + "</ul>";
}

async function sessions() {
  const list = await api("/sessions?limit=200");
  show(`<h1>Sessions</h1><section>${sessionList(list)}</section>`, "Sessions");
}

function contextIndicator(ctx) {
  // Every turn says what the bridge did, in the same words: a count, or why there is none.
  if (!ctx || !ctx.judgment) return `<p class="ctx small muted">🧠 No brain context: the bridge kept no record of this turn</p>`;
  const n = ctx.loaded.length;
  const label = ctx.judgment === "step_back" ? "🧠 No brain context: stepped back, a note only"
    : `🧠 ${n ? plural(n, "brain context") + " loaded" : "No brain context loaded"}`;
  return `<details class="ctx"><summary>${label}</summary><dl class="kv small">
    <dt>Judgment</dt><dd>${esc(ctx.judgment.replace("_", " "))}: ${esc(ctx.why)}</dd>
    ${ctx.queries.length ? `<dt>Queries</dt><dd>${ctx.queries.map((q) => `<span class="chip">${esc(q)}</span>`).join("")}</dd>` : ""}
    ${n ? `<dt>Loaded</dt><dd><ul class="loaded">${ctx.loaded.map((e) => `<li>${e.type ? entityLink(e) : esc(e.name)}</li>`).join("")}</ul></dd>` : ""}
    ${ctx.stored.length ? `<dt>Stored</dt><dd>${ctx.stored.map((s) => s.item ? `${esc(s.text)} ${entityLink(s.item)}` : esc(s.text ?? s)).join("<br>")}</dd>` : ""}
    </dl></details>`;
}

async function session(id) {
  const [t, runs] = await Promise.all([api(`/sessions/${enc(id)}/transcript`), api(`/sessions/${enc(id)}/curator-runs`)]);
  const s = t.session, last = runs[0];
  const chip = last ? curatorWords(last.actions).join(" · ") || "no change" : "not run yet";
  show(`<h1>${esc(s.title || "Untitled conversation")}</h1>
    <section><p class="muted small">${when(s.created_at)} · ${plural(s.message_count, "turn")}</p>
      <p>${s.summary ? esc(s.summary) : '<span class="muted">No summary yet.</span>'}</p>
      <details id="curator"><summary>Curator: <span class="chip" id="curator-chip">${esc(chip)}</span></summary>
        <ul class="plain small">${runs.map((r) => `<li>${when(r.started_at)} · ${esc(r.trigger)}
          · ${esc(curatorWords(r.actions).join(", ") || "no change")}${r.error ? ` <span class="err">${esc(r.error)}</span>` : ""}
          ${(r.tool_calls || []).length ? `<div class="muted">${esc(curatorWords(r.tool_calls.map((c) => c.name || c.tool || "")).join(", "))}</div>` : ""}</li>`).join("")
          || "<li class='muted'>No runs yet.</li>"}</ul>
        <button type="button" id="curate-now">Run the curator now</button> <span id="curate-result" class="small" aria-live="polite"></span>
      </details>${forgetButton("Forget this conversation…")}</section>
    <section aria-label="Transcript"><h2>Transcript</h2>${t.turns.map((turn) => `<div class="turn" id="turn-${turn.exchange_number}">
      <div class="who">You · turn ${esc(turn.exchange_number)} <span class="muted">${esc(turn.date || "")}</span></div>
      <div class="said">${esc(turn.user) || '<span class="muted">(not stored: a short or trivial turn)</span>'}</div>
      ${contextIndicator(turn.context)}
      ${turn.ai ? `<div class="who">Assistant</div><div class="said">${esc(turn.ai)}</div>` : ""}
      </div>`).join("") || '<p class="muted">No exchanges stored.</p>'}</section>`, s.title || "Session");
  document.getElementById("curate-now").addEventListener("click", async (ev) => {
    ev.target.disabled = true;
    const out = document.getElementById("curate-result");
    try { const r = await api(`/sessions/${enc(id)}/curate`, {method: "POST"}); out.textContent = r.changes || "done"; await session(id); }
    catch (e) { out.textContent = e.message; ev.target.disabled = false; }
  });
  document.getElementById("forget").addEventListener("click", () => forgetItem("Chat_Session", id, "#/sessions"));
}

async function browse(query) {
  const p = new URLSearchParams(query || "");
  const type = p.get("type") || "", q = p.get("q") || "", offset = Number(p.get("offset") || 0);
  const [types, page] = await Promise.all([api("/types"),
    api(`/browse?limit=50&offset=${offset}` + (type ? "&type=" + enc(type) : "") + (q ? "&q=" + enc(q) : ""))]);
  const link = (t, o) => "#/browse?" + new URLSearchParams({...(t ? {type: t} : {}), ...(q ? {q} : {}), ...(o ? {offset: o} : {})});
  show(`<h1>${type ? esc(type) : "Everything in your brain"}</h1><div class="grid"><div><section>
      <form class="row" id="filter-form"><label class="sr-only" for="filter">Filter</label>
        <input id="filter" value="${esc(q)}" placeholder="name or words in the description"><button type="submit">Filter</button></form>
      <p class="muted small">${plural(page.total, "entry", "entries")}</p>
      <ul class="plain" id="entities">${page.entities.map((e) => `<li>${entityLink(e)}
        <div class="small muted">${esc(e.description.slice(0, 160))}</div></li>`).join("") || '<li class="muted">Nothing here.</li>'}</ul>
      <div class="pager">${offset > 0 ? `<a href="${link(type, Math.max(0, offset - 50))}">Previous</a>` : ""}
        ${offset + 50 < page.total ? `<a href="${link(type, offset + 50)}">Next</a>` : ""}</div></section></div>
    <aside><section><h2>Types</h2><nav class="types" aria-label="Entity types">
      <a href="#/browse" aria-current="${!type}"><span>All</span></a>
      ${types.filter((t) => t.count).map((t) => `<a href="${link(t.type)}" aria-current="${t.type === type}"><span>${esc(t.type)}</span><span class="muted">${t.count}</span></a>`).join("")}
    </nav></section></aside></div>`, type || "Brain");
  document.getElementById("filter-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const v = document.getElementById("filter").value.trim();
    location.hash = "#/browse?" + new URLSearchParams({...(type ? {type} : {}), ...(v ? {q: v} : {})});
  });
}

async function searchView(query) {
  const q = new URLSearchParams(query || "").get("q") || "";
  const r = await api("/search?n=20&q=" + enc(q));
  show(`<h1>Search</h1><section><form class="row" id="search-form" role="search"><label class="sr-only" for="q">Search</label>
      <input id="q" value="${esc(q)}" autocomplete="off"><button type="submit">Search</button></form></section>
    <section><ol id="results">${r.results.map((h) => `<li class="hit">${entityLink({...h, title: titleOf(h), replaced: h.replaced ?? !!h.attributes?.superseded_by})}
      <div class="small">${esc(String(h.description || "").slice(0, 300))}</div>
      ${h.no_longer_holds ? `<div class="ended small">${esc(h.no_longer_holds)}</div>` : ""}
      <div class="muted small">found by ${esc((h.retrievers || []).join(", "))}</div></li>`).join("")}</ol>
      ${r.count ? "" : `<p class="muted">Nothing matches “${esc(q)}”.</p>`}</section>`, "Search");
  document.getElementById("search-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.hash = "#/search?q=" + enc(document.getElementById("q").value);
  });
}

async function entity(type, name) {
  const d = await api(`/entity?type=${enc(type)}&name=${enc(name)}`);
  const e = d.entity;
  const attrs = Object.entries(e.attributes).filter(([k]) => !["aliases", "user_message", "ai_response"].includes(k));
  const dated = (r) => r.valid_to ? `<span class="ended small"> · ended ${esc(r.valid_to)}</span>`
    : r.valid_from ? `<span class="current small"> · since ${esc(r.valid_from)}</span>` : "";
  const rel = (r) => `<li>${r.direction === "out" ? "→" : "←"} <span class="muted">${esc(r.relation.replaceAll("_", " "))}</span>
    ${entityLink(r.other)}${dated(r)}</li>`;
  const current = d.relations.filter((r) => r.current), ended = d.relations.filter((r) => !r.current);
  const links = d.links || {};
  const linked = (k, v) => links[k] ? (links[k].session ? `<a href="#/session/${enc(links[k].name)}">${esc(links[k].title)}</a>` : entityLink(links[k]))
    : esc(typeof v === "string" ? v : JSON.stringify(v));
  const noRelations = ended.length ? `None current; ${plural(ended.length, "relation")} ended, below.`
    : d.sources.length ? "None besides the conversations it came from." : "None.";
  const session = links.session_id;
  const cameFrom = e.type === "Chat_Exchange" ? (session ? `<li>Said in <a href="#/session/${enc(session.name)}">${esc(session.title)}</a>, turn ${esc(e.attributes.exchange_number ?? "")}</li>` : '<li class="muted">A turn of a conversation no longer stored.</li>')
    : e.type === "Chat_Session" ? '<li class="muted">A conversation with the assistant.</li>'
    : e.attributes.doc_path ? `<li>Imported from <code>${esc(e.attributes.doc_path)}</code></li>`
    : '<li class="muted">Added directly, not from a conversation.</li>';
  const heading = e.type === "Chat_Exchange" ? (e.attributes.user_message || e.name)
    : e.type === "Chat_Session" ? (e.attributes.title || e.name) : e.name;
  show(`<h1>${esc(heading)} <span class="type">${esc(e.type)}</span>
      ${d.current ? "" : '<span class="chip ended">no longer holds</span>'}</h1>
    <div class="grid"><div>
    <section><h2>About</h2><p id="description">${esc(e.description) || '<span class="muted">No description.</span>'}</p>
      ${d.aliases.length ? `<p class="small">Also called: ${d.aliases.map((a) => `<span class="chip">${esc(a)}</span>`).join("")}</p>` : ""}
      ${attrs.length ? `<dl class="kv small">${attrs.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${linked(k, v)}</dd>`).join("")}</dl>` : ""}
      ${["Chat_Exchange", "Chat_Session"].includes(e.type) && e.attributes.session_id ? `<p><a href="#/session/${enc(e.attributes.session_id)}">Open the conversation</a></p>` : ""}
      ${forgetButton("Forget…")}
      <details><summary>Edit</summary><form id="edit-form"><label for="edit-desc" class="muted small">Description</label>
        <textarea id="edit-desc" rows="4">${esc(e.description)}</textarea>
        <label for="edit-attrs" class="muted small">Attributes, one <code>key: value</code> per line (an empty value removes the key)</label>
        <textarea id="edit-attrs" rows="${Math.max(3, attrs.length + 1)}">${esc(attrs.map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`).join("\n"))}</textarea>
        <p id="edit-error" class="err small" role="alert"></p>
        <div class="actions"><button type="submit">Save</button>
        <button type="button" class="danger" id="delete">Delete</button></div></form></details></section>
    <section><h2>Relations</h2><ul class="plain" id="relations">${current.map(rel).join("") || `<li class="muted">${noRelations}</li>`}</ul></section>
    <section><h2>Facts over time</h2><p class="small">${d.valid_from ? `Holds since ${esc(d.valid_from)}. ` : ""}${d.valid_to ? `Ended ${esc(d.valid_to)}${d.superseded_by ? ` (replaced by ${linked("superseded_by", d.superseded_by)})` : ""}.` : d.current ? "Holds now." : ""}</p>
      ${ended.length ? `<h3 class="small muted">No longer true</h3><ul class="plain">${ended.map(rel).join("")}</ul>` : '<p class="muted small">Nothing related has ended.</p>'}</section>
    </div><aside>
    <section><h2>Came from</h2><ul class="plain small" id="sources">${d.sources.map((x) => `<li><a href="${entityHref("Chat_Exchange", x.name)}">${esc(x.title)}</a>
      <div class="muted">${esc(x.date || "")}${x.session_id ? ` · <a href="#/session/${enc(x.session_id)}">conversation</a>` : ""}</div></li>`).join("") || cameFrom}</ul></section>
    <section><h2>Neighbourhood</h2><p><a href="#/graph/${enc(e.type)}/${enc(e.name)}">Show the graph</a></p></section>
    </aside></div>`, heading);
  document.getElementById("edit-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    // Attributes as typed: numbers, booleans and JSON lists stay what they look like;
    // a key left out or emptied is removed (null), which the API merges as a deletion.
    const attributes = Object.fromEntries(attrs.map(([k]) => [k, null]));
    for (const line of document.getElementById("edit-attrs").value.split("\n")) {
      const m = line.match(/^\s*([^:]+?)\s*:\s*(.*)$/);
      if (!m) continue;
      let value = m[2].trim();
      try { if (/^(-?\d+(\.\d+)?|true|false|\[.*\]|\{.*\})$/.test(value)) value = JSON.parse(value); } catch (_) {}
      attributes[m[1]] = value === "" ? null : value;
    }
    try {
      await api("/entities", {method: "POST", body: JSON.stringify({type: e.type, name: e.name,
        description: document.getElementById("edit-desc").value, attributes})});
      await entity(type, name);
    } catch (err) { document.getElementById("edit-error").textContent = err.message; }
  });
  document.getElementById("forget").addEventListener("click", () => forgetItem(e.type, e.name, "#/browse?type=" + enc(e.type)));
  document.getElementById("delete").addEventListener("click", async () => {
    if (!confirm(`Delete ${e.type} “${e.name}” and its relations?`)) return;
    await api(`/entities/${enc(e.type)}/${enc(e.name)}`, {method: "DELETE"});
    location.hash = "#/browse?type=" + enc(e.type);
  });
}

// Forget: the server lists what goes with the item (what was derived from it too), the
// person confirms, then it goes for good.
const forgetButton = (label) => `<p><button type="button" class="danger" id="forget">${esc(label)}</button>
  <span id="forget-result" class="err small" role="alert"></span></p>`;

async function forgetItem(type, name, then) {
  const out = document.getElementById("forget-result");
  try {
    const plan = await api("/forget", {method: "POST", body: JSON.stringify({type, name, preview: true})});
    const counts = Object.entries(plan.counts).filter(([, n]) => n)
      .map(([k, n]) => `${n} ${k.replaceAll("_", " ")}`).join(", ");
    if (!confirm(`Forget ${type} “${name}” for good, with what came from it?\n${counts}`)) return;
    await api("/forget", {method: "POST", body: JSON.stringify({type, name})});
    location.hash = then;
  } catch (err) { out.textContent = err.message; }
}

async function graphView(type, name) {
  const g = await api(`/graph?hops=2&type=${enc(type)}&name=${enc(name)}`);
  const key = (t, n) => t + "\u0000" + n;
  const depth = new Map([[key(type, name), 0]]);
  for (let d = 0; d < 2; d++) {
    for (const ed of g.edges) {
      const a = key(...ed.src), b = key(...ed.dst);
      if (depth.get(a) === d && !depth.has(b)) depth.set(b, d + 1);
      if (depth.get(b) === d && !depth.has(a)) depth.set(a, d + 1);
    }
  }
  // Rings that spread: each depth takes as many concentric rings as its labels need
  // (about 125 px of arc a label), so a hub's 30 neighbours never sit on one crowded ring.
  const rings = [0, 1, 2].map((d) => g.nodes.filter((n) => (depth.get(key(n.type, n.name)) ?? 2) === d));
  const placed = [];
  let r = 0, k = 0;
  rings.forEach((ring, d) => {
    if (d === 0) { ring.forEach((n) => placed.push([n, 0, 0])); return; }
    r += d === 1 ? 150 : 80;
    let left = ring.slice();
    while (left.length) {
      const room = Math.max(6, Math.floor((2 * Math.PI * r) / 125));
      const row = left.slice(0, room);
      left = left.slice(room);
      // Each ring turns half a step from the one inside it: labels side by side on the
      // left and right never line up.
      const step = (2 * Math.PI) / row.length, turn = (k++ % 2) * step / 2 + 0.3;
      row.forEach((n, i) => placed.push([n, r, step * i + turn]));
      if (left.length) r += 60;
    }
  });
  const half = r + 70, W = 2 * half, H = 2 * half, pos = new Map();
  for (const [n, radius, angle] of placed) pos.set(key(n.type, n.name), [half + radius * Math.cos(angle), half + radius * Math.sin(angle)]);
  const byKey = new Map(g.nodes.map((n) => [key(n.type, n.name), n]));
  const said = (n) => n ? (n.title || n.name) : "";
  const ended = (ed) => !(byKey.get(key(...ed.src))?.current ?? true) || !(byKey.get(key(...ed.dst))?.current ?? true);
  const lines = g.edges.map((ed) => {
    const a = pos.get(key(...ed.src)), b = pos.get(key(...ed.dst));
    if (!a || !b) return "";
    const words = `${said(byKey.get(key(...ed.src)))} ${ed.type.replaceAll("_", " ").toLowerCase()} ${said(byKey.get(key(...ed.dst)))}`;
    // The relation's name shows on hover (and keyboard focus) at the middle of its line.
    return `<g class="edge ${ended(ed) ? "ended" : ""}"><title>${esc(words)}</title>
      <line class="hit" x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}"></line>
      <line x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}"></line>
      <text x="${(a[0] + b[0]) / 2}" y="${(a[1] + b[1]) / 2 - 4}" text-anchor="middle">${esc(ed.type.replaceAll("_", " ").toLowerCase())}</text></g>`;
  }).join("");
  // Cut after a whole word (the full name shows on hover).
  const labelOf = (full) => {
    const cut = full.slice(0, 15);
    return full.length <= 16 ? full : (/\s/.test(full[15]) ? cut : cut.replace(/\s+\S*$/, "") || cut) + "…";
  };
  // A label that would cover one placed before it moves below or above its node.
  const boxes = [], labelY = new Map();
  for (const n of g.nodes) {
    const [x, y] = pos.get(key(n.type, n.name)), w = 7 * labelOf(n.title || n.name).length + 6;
    const tries = [22, 36, -14, 50, -28];
    const clear = (dy) => !boxes.some((b) => Math.abs(b[0] - x) < (b[2] + w) / 2 && Math.abs(b[1] - (y + dy)) < 14);
    const dy = tries.find(clear) ?? tries[0];
    boxes.push([x, y + dy, w]);
    labelY.set(key(n.type, n.name), y + dy);
  }
  const nodes = g.nodes.map((n) => {
    const [x, y] = pos.get(key(n.type, n.name));
    const root = n.type === type && n.name === name;
    const full = n.title || n.name;
    const label = labelOf(full);
    return `<a href="#/graph/${enc(n.type)}/${enc(n.name)}" class="${root ? "root" : ""} ${n.current ? "" : "ended"}"
      aria-label="${esc(n.type)} ${esc(full)}"><title>${esc(full)} (${esc(n.type)})</title><circle cx="${x}" cy="${y}" r="${root ? 11 : 8}"></circle>
      <text x="${x}" y="${labelY.get(key(n.type, n.name))}" text-anchor="middle">${esc(label)}</text></a>`;
  }).join("");
  const rootNode = byKey.get(key(type, name));
  const title = rootNode ? said(rootNode) : name;
  show(`<h1>Around ${esc(title)} <span class="type">${esc(type)}</span></h1>
    <p><a href="${entityHref(type, name)}">Open ${esc(title)}</a> · ${plural(g.nodes.length, "entry", "entries")} within two hops · click a node to centre on it, point at a line for its relation</p>
    <p class="legend small" id="legend"><span><svg width="22" height="22" aria-hidden="true"><circle cx="11" cy="11" r="8" class="key-root"></circle></svg> this entry</span>
      <span><svg width="22" height="22" aria-hidden="true"><circle cx="11" cy="11" r="8" class="key-node"></circle></svg> holds now</span>
      <span><svg width="22" height="22" aria-hidden="true"><circle cx="11" cy="11" r="8" class="key-ended"></circle></svg> ended or replaced</span>
      <span><svg width="34" height="10" aria-hidden="true"><line x1="2" y1="5" x2="32" y2="5" class="key-line"></line></svg> relation</span>
      <span><svg width="34" height="10" aria-hidden="true"><line x1="2" y1="5" x2="32" y2="5" class="key-line ended"></line></svg> relation that ended (dashed)</span></p>
    <div class="graph-wrap"><svg class="graph" viewBox="0 0 ${W} ${H}" role="img" aria-label="Graph of the entries around ${esc(title)}">${lines}${nodes}</svg></div>
    <section><h2>In the graph</h2><ul class="plain small">${g.nodes.map((n) => `<li>${entityLink(n)}</li>`).join("")}</ul></section>`, title);
}

async function merges() {
  const [pending, done] = await Promise.all([api("/merges?status=pending"), api("/merges?status=merged")]);
  const row = (m, buttons) => `<li data-merge="${m.id}">${esc(m.entity_type)}: keep
    <a href="${entityHref(m.entity_type, m.keep_name)}">${esc(m.keep_name)}</a>, fold in <b>${esc(m.other_name)}</b>
    ${m.reason ? `<div class="muted small">${esc(m.reason)}</div>` : ""}<div class="actions">${buttons}</div></li>`;
  show(`<h1>Who is who</h1>
    <section><h2>Waiting for review</h2><ul class="plain" id="pending">${pending.merges.map((m) => row(m,
      `<button type="button" data-act="accept" data-id="${m.id}">Merge</button>
       <button type="button" class="quiet" data-act="reject" data-id="${m.id}">Keep apart</button>`)).join("") || '<li class="muted">Nothing to review.</li>'}</ul></section>
    <section><h2>Merged</h2><ul class="plain" id="merged">${done.merges.map((m) => row(m,
      `<button type="button" class="quiet" data-act="unmerge" data-id="${m.id}">Unmerge</button>`)).join("") || '<li class="muted">No merges yet.</li>'}</ul></section>`, "Merges");
  view.querySelectorAll("button[data-act]").forEach((b) => b.addEventListener("click", async () => {
    b.disabled = true;
    try { await api(`/merges/${b.dataset.id}/${b.dataset.act}`, {method: "POST"}); await merges(); }
    catch (e) { b.insertAdjacentHTML("afterend", `<span class="err small"> ${esc(e.message)}</span>`); }
  }));
}

async function directives() {
  const d = await api("/directives");
  const states = ["active", "scheduled", "superseded", "expired", "completed"];
  const group = (s) => d.items.filter((i) => i.state === s);
  show(`<h1>Directives</h1>
    <section><h2>What an autonomous run receives now</h2>
      ${d.text ? `<pre class="block" id="directive-text">${esc(d.text)}</pre>` : '<p class="muted">No standing guidance.</p>'}
      <p class="muted small">${esc(d.stats.summary_chars)} of ${esc(d.stats.budget_chars)} characters · ${esc(d.stats.conflicts)} conflicts</p></section>
    ${states.map((s) => group(s).length ? `<section><h2>${esc(s)} (${group(s).length})</h2><ul class="plain">${group(s).map((i) =>
      `<li><span class="chip">${esc(i.category)}</span>${esc(i.text)}<div class="muted small">#${i.id} · ${when(i.at)}${i.note ? " · " + esc(i.note) : ""}</div></li>`).join("")}</ul></section>` : "").join("")}
    ${d.items.length ? "" : '<section><p class="muted">No directives yet: an admin adds them with <code>brain directives add</code>.</p></section>'}`, "Directives");
}

const ROUTES = [
  [/^#?\/?$/, home],
  [/^#\/sessions$/, sessions],
  [/^#\/session\/(.+)$/, session],
  [/^#\/browse(?:\?(.*))?$/, browse, "query"],
  [/^#\/search(?:\?(.*))?$/, searchView, "query"],
  [/^#\/entity\/([^/]+)\/(.+)$/, entity],
  [/^#\/graph\/([^/]+)\/(.+)$/, graphView],
  [/^#\/merges$/, merges],
  [/^#\/directives$/, directives],
];

async function route() {
  token = takeToken();
  if (!token) return tokenHelp(false);
  const hash = location.hash || "#/";
  const section = (hash.match(/^#\/(\w+)/) || [, "home"])[1];
  document.querySelectorAll("nav a[data-nav]").forEach((a) => {
    const on = a.dataset.nav === section || (a.dataset.nav === "browse" && ["entity", "graph"].includes(section))
      || (a.dataset.nav === "sessions" && section === "session");
    if (on) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  });
  for (const [pattern, fn, query] of ROUTES) {
    const m = hash.match(pattern);
    if (!m) continue;
    try {
      // A query string is parsed by URLSearchParams; path parts are decoded here.
      await fn(...m.slice(1).map((x) => x === undefined || query ? x : decodeURIComponent(x)));
      view.dataset.shown = hash;  // tests and tools can tell which view has rendered
      loadStats();
      view.focus({preventScroll: true});
    } catch (e) {
      if (e instanceof Unauthorized) return tokenHelp(true);
      show(`<section><p class="err">${esc(e.message)}</p><p><a href="#/">Home</a></p></section>`, "Error");
    }
    return;
  }
  show(`<section><p>No such page.</p><p><a href="#/">Home</a></p></section>`, "Not found");
}

window.addEventListener("hashchange", route);
route();
