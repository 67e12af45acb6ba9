"""The web page served at `/`: search, the bridge's view of a message, sessions and curator runs."""

PAGE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>brainbridge</title>
<style>
 :root { --fg:#1d2330; --muted:#6b7385; --line:#e3e6ec; --accent:#3d5afe; --bg:#fafbfc; }
 * { box-sizing: border-box; }
 body { font: 15px/1.5 system-ui, -apple-system, Segoe UI, sans-serif; color: var(--fg);
        background: var(--bg); margin: 0; }
 header { padding: 14px max(24px, calc((100% - 1200px) / 2 + 24px)); border-bottom: 1px solid var(--line); background: #fff;
          display: flex; gap: 16px; align-items: baseline; }
 header h1 { font-size: 18px; margin: 0; } header span { color: var(--muted); font-size: 13px; }
 main { display: grid; grid-template-columns: minmax(0, 1fr) 340px; gap: 24px; padding: 24px;
        max-width: 1200px; margin: 0 auto; }
 @media (max-width: 800px) { main { grid-template-columns: 1fr; padding: 12px; } }
 .logo { display: inline-block; width: 12px; height: 12px; border-radius: 50%; margin-right: 8px;
         background: linear-gradient(135deg, var(--accent), #00bfa5); }
 section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px; margin-bottom: 16px; }
 h2 { font-size: 14px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 10px; }
 form { display: flex; gap: 8px; } input, textarea { flex: 1; font: inherit; padding: 8px 10px;
        border: 1px solid var(--line); border-radius: 6px; }
 button { font: inherit; padding: 8px 14px; border: 0; border-radius: 6px; background: var(--accent);
          color: #fff; cursor: pointer; }
 ol, ul { padding-left: 20px; margin: 8px 0 0; } li { margin: 6px 0; }
 .type { color: var(--muted); font-size: 12px; border: 1px solid var(--line); border-radius: 10px;
         padding: 0 6px; margin-left: 4px; }
 .by { color: var(--muted); font-size: 12px; } .empty { color: var(--muted); }
 pre { white-space: pre-wrap; background: #f4f5f8; padding: 10px; border-radius: 6px; font-size: 13px; }
 .chip { display: inline-block; font-size: 12px; background: #eef1ff; color: var(--accent);
         border-radius: 10px; padding: 1px 8px; margin-left: 6px; }
 .session { cursor: pointer; } .session:hover, .session.active { color: var(--accent); }
 .session.active { font-weight: 600; }
 .chips { margin: 4px 0 8px; } .chips .chip { margin-left: 0; }
 .hit b { word-break: break-word; }
 .err { color: #b00020; }
</style></head>
<body>
<header><h1><span class="logo" aria-hidden="true"></span>brainbridge</h1><span id="stats">…</span></header>
<main>
 <div>
  <section>
   <h2>Search your brain</h2>
   <form id="search-form"><input id="q" name="q" placeholder="people, projects, what was said…" autocomplete="off">
   <button type="submit">Search</button></form>
   <div id="results"></div>
  </section>
  <section>
   <h2>What the bridge would load</h2>
   <form id="enrich-form"><input id="msg" placeholder="a message, e.g. “how is Kevin's cohort going?”">
   <button type="submit">Preview</button></form>
   <div id="enrichment"></div>
  </section>
 </div>
 <aside>
  <section><h2>Sessions</h2><div id="sessions" class="empty">loading…</div></section>
  <section><h2>Session</h2><div id="session" class="empty">Pick a session.</div></section>
 </aside>
</main>
<script>
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const headers = token ? {"Authorization": "Bearer " + token} : {};
const $ = (id) => document.getElementById(id);
function plural(n, one, many) { return `${n} ${n === 1 ? one : (many || one + "s")}`; }
function esc(s) { return String(s ?? "").replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;","\\"":"&quot;","'":"&#39;"}[c])); }
async function api(path, opts = {}) {
  const r = await fetch(path, {...opts, headers: {...headers, "Content-Type": "application/json", ...(opts.headers || {})}});
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || (typeof body.detail === "string" ? body.detail : "") || r.statusText || `HTTP ${r.status}`);
  return body;
}
async function loadStats() {
  try { const s = await api("/stats");
    $("stats").textContent = [plural(s.entities, "entity", "entities"), plural(s.relations, "relation"),
                              plural(s.sessions, "session")].join(" · ");
  } catch (e) { $("stats").textContent = e.message; }
}
$("search-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const q = $("q").value; const out = $("results");
  try {
    const r = await api("/search?n=10&q=" + encodeURIComponent(q));
    out.innerHTML = r.count ? "<ol>" + r.results.map(h =>
      `<li class="hit"><b>${esc(h.name)}</b><span class="type">${esc(h.type)}</span>
       <div>${esc(String(h.description ?? "").slice(0, 300))}</div><div class="by">found by ${esc((h.retrievers || []).join(", "))}</div></li>`).join("") + "</ol>"
      : `<p class="empty">Nothing matches “${esc(q)}”.</p>`;
  } catch (e) { out.innerHTML = `<p class="err">${esc(e.message)}</p>`; }
});
$("enrich-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const out = $("enrichment");
  try {
    const r = await api("/enrich", {method: "POST", body: JSON.stringify({message: $("msg").value})});
    out.innerHTML = `<p>Judgment: <b id="judgment">${esc(r.judgment)}</b> <span class="by">${esc((r.reasons || []).join("; "))}</span></p>`
      + (r.block ? `<pre id="block">${esc(r.block)}</pre>` : `<p class="empty">No context would be injected.</p>`);
  } catch (e) { out.innerHTML = `<p class="err">${esc(e.message)}</p>`; }
});
async function loadSessions() {
  try {
    const list = await api("/sessions");
    $("sessions").className = list.length ? "" : "empty";
    $("sessions").innerHTML = list.length ? "<ul>" + list.map(s =>
      `<li class="session" data-id="${esc(s.id)}">${esc(s.title || s.id.slice(0, 8))}
       <span class="by">${plural(s.message_count, "turn")}</span></li>`).join("") + "</ul>" : "No sessions yet.";
    document.querySelectorAll(".session").forEach(el => el.addEventListener("click", () => showSession(el.dataset.id)));
  } catch (e) { $("sessions").innerHTML = `<p class="err">${esc(e.message)}</p>`; }
}
async function showSession(id) {
  document.querySelectorAll(".session").forEach(el => el.classList.toggle("active", el.dataset.id === id));
  try {
    const [s, runs] = await Promise.all([api("/sessions/" + encodeURIComponent(id)),
                                         api("/sessions/" + encodeURIComponent(id) + "/curator-runs")]);
    const last = runs[0];
    $("session").className = "";
    $("session").innerHTML = `<p><b>${esc(s.title || id)}</b></p>`
      + (last ? `<div class="chips"><span class="chip">${esc((last.actions || []).join(" · ") || "no change")}</span></div>` : "")
      + `<p>${esc(s.summary) || '<span class="empty">No summary yet.</span>'}</p>
      <p class="by">Curator runs: ${runs.length}</p>
      <ul>${(s.bridge_context_log || []).slice(-8).map(e => `<li class="by">turn ${esc(e.turn)}`
        + `${e.judgment ? " · " + esc(e.judgment) : ""} · loaded ${(e.loaded || []).length}`
        + ` · stored ${(e.stored || []).length}</li>`).join("")}</ul>`;
  } catch (e) { $("session").innerHTML = `<p class="err">${esc(e.message)}</p>`; }
}
window.addEventListener("hashchange", () => location.reload());
loadStats(); loadSessions();
</script>
</body></html>
"""
