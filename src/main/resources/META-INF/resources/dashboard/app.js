// PoolBudget dashboard: polls api/policies every 2 s and draws what it returns. Read-only; every
// value goes into the page as text (textContent), never as HTML.
"use strict";
const POLL_MS = 2000;
const PAGE_SIZE = 25;
const state = { page: 1, open: new Set(), lastOk: 0, timer: null, lastText: null };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v; else if (k === "style") e.style.cssText = v; else e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

const n = (v) => (v === undefined || v === null ? "–" : Number(v).toLocaleString("en"));
// what pods hold: "any number" where pods not sized yet have no pool limit (the operator sends no count then)
const held = (v, any) => (any ? "any number" : n(v));
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString("en-GB") : "");

function query() {
  const p = new URLSearchParams({ page: state.page, size: PAGE_SIZE });
  if ($("namespace").value) p.set("namespace", $("namespace").value);
  if ($("search").value.trim()) p.set("q", $("search").value.trim());
  if ($("problems").checked) p.set("problems", "true");
  return p.toString();
}

async function poll() {
  clearTimeout(state.timer);
  try {
    const r = await fetch("api/policies?" + query(), { cache: "no-store" });
    if (r.status === 503) {
      $("freshness").textContent = "the operator is loading its caches…";
    } else if (!r.ok) {
      throw new Error("HTTP " + r.status);
    } else {
      const text = await r.text();
      if (text !== state.lastText) { // redraw only on change: a still page keeps its selection and focus
        state.lastText = text;
        draw(JSON.parse(text));
      }
      // when the first page was on screen, for bench/dashboard.sh
      if (!state.lastOk) document.documentElement.dataset.firstDrawMs = String(Math.round(performance.now()));
      state.lastOk = Date.now();
      $("freshness").textContent = "updated " + new Date().toLocaleTimeString("en-GB") + ", every " + POLL_MS / 1000 + " s";
      $("freshness").classList.remove("stale");
    }
  } catch (e) {
    const since = state.lastOk ? "; last update " + new Date(state.lastOk).toLocaleTimeString("en-GB") : "";
    $("freshness").textContent = "cannot reach the operator (" + e.message + ")" + since;
    $("freshness").classList.add("stale");
  }
  state.timer = setTimeout(poll, POLL_MS);
}

function draw(data) {
  const sel = $("namespace");
  const chosen = sel.value;
  const wanted = ["", ...data.namespaces];
  if ([...sel.options].map((o) => o.value).join("\n") !== wanted.join("\n")) {
    sel.replaceChildren(el("option", { value: "" }, "all namespaces"),
      ...data.namespaces.map((ns) => el("option", { value: ns }, ns)));
    sel.value = data.namespaces.includes(chosen) ? chosen : "";
  }
  state.page = data.page;
  $("pageinfo").textContent = "page " + data.page + " of " + data.pages;
  $("prev").disabled = data.page <= 1;
  $("next").disabled = data.page >= data.pages;
  $("window").textContent = data.stabilizationWindow.replace(/^PT/, "").toLowerCase();
  const t = data.totals;
  $("totals").replaceChildren(
    el("span", {}, el("b", { id: "total-policies" }, n(t.policies)), " policies"),
    el("span", {}, el("b", { id: "total-problems" }, n(t.withProblems)), " with problems"),
    el("span", {}, el("b", {}, n(t.budget)), " connections budgeted"),
    el("span", {}, el("b", {}, n(t.allocated)), " allocated"),
    el("span", {}, el("b", {}, held(t.live, t.liveAnyNumber)), " held by pods now"));
  const main = $("policies");
  if (data.policies.length === 0) {
    main.replaceChildren(el("p", { class: "empty" }, t.policies === 0 && !query().includes("q=")
      ? "No PoolPolicies here yet. Apply one with kubectl (see examples/)." : "No policy matches the filter."));
    return;
  }
  main.replaceChildren(...data.databases.map(database));
}

// One card per database: a DatabaseBudget with its whole budget, each namespace's weight and share, what pods outside
// its admitted policies hold, and its policies nested; a policy with a database of its own is its own card.
function database(d) {
  if (d.kind !== "DatabaseBudget") return policy(d.policies[0]);
  const known = d.budget !== null && d.budget !== undefined;
  return el("section", { class: "database", "data-database": d.name },
    el("h2", {}, "database ", el("b", {}, d.name), el("span", { class: "badge db" }, "DatabaseBudget, shared by namespaces")),
    known ? el("p", { class: "budgetline", "data-field": "databaseline" },
      el("b", {}, n(d.allocated)), " of ", el("b", {}, n(d.budget)), " connections allocated to its policies · pods hold ",
      el("b", {}, held(d.live, d.liveAnyNumber)), " now · ", el("b", {}, n(d.heldOutside)), " held outside its admitted policies")
      : el("p", { class: "budgetline" }, "No status from the DatabaseBudget yet (not reconciled, or this installation does not share budgets)"),
    d.budgetExplanation ? el("div", { class: "explain" }, "budget: " + d.budgetExplanation) : null,
    ledger(d),
    d.shares.length ? el("table", {}, el("thead", {}, el("tr", {}, ...["Namespace", "Policy", "Weight", "Share", "Allocated",
      "Held now", "Note"].map((h, i) => el("th", { class: i >= 2 && i <= 5 ? "num" : null }, h)))),
      el("tbody", {}, d.shares.map((s) => el("tr", { "data-share": s.namespace + "/" + s.policy },
        el("td", {}, s.namespace), el("td", {}, s.policy),
        el("td", { class: "num", "data-field": "weight" }, n(s.weight)),
        el("td", { class: "num", "data-field": "share" }, n(s.share)),
        el("td", { class: "num" }, n(s.allocated)), el("td", { class: "num" }, held(s.live, s.liveAnyNumber)),
        el("td", { class: "note" }, s.refused || ""))))) : null,
    d.outside.length ? el("p", { class: "note", "data-field": "outside" }, "Held outside: " + d.outside.map((h) =>
      h.namespace + "/" + h.policy + " " + n(h.pods) + " pods, " + n(h.connections) + " connections (" + h.reason + ")").join("; ")) : null,
    el("div", { class: "nested" }, ...d.policies.map(policy)));
}

// A budget shared with other clusters through a ledger: what this cluster plans with, each cluster's claim, and why
// a raise waits (docs/clusters.md).
function ledger(d) {
  const l = d.ledger;
  if (!l && !d.ledgerProblem) return null;
  return el("div", { class: "ledger", "data-field": "ledger" },
    l ? el("p", { class: "budgetline" }, "ledger: this cluster plans with ", el("b", {}, n(l.planWith)), " of ",
      el("b", {}, n(l.budget)), " (its target ", n(l.target), ", granted ", n(l.granted), ") · clusters: ",
      l.clusters.map((c) => c.cluster + " granted " + n(c.granted) + ", holds " + n(c.holds) + " (" + c.lease + ")")
        .join("; ")) : null,
    l && l.waiting.length ? el("p", { class: "note" }, "waits: " + l.waiting.join("; ")) : null,
    d.ledgerProblem ? el("p", { class: "note problem" }, "ledger not in use: " + d.ledgerProblem) : null);
}

function policy(p) {
  const key = p.namespace + "/" + p.name;
  const cls = "policy" + (p.problem ? " problem" : p.dryRun ? " dryrun" : "");
  const badge = p.problem ? el("span", { class: "badge bad" }, "needs attention")
    : p.dryRun ? el("span", { class: "badge warn" }, "dry run") : el("span", { class: "badge ok" }, "within budget");
  return el("article", { class: cls, "data-policy": key },
    el("h2", {}, el("span", { class: "ns" }, p.namespace + " /"), p.name,
      p.database ? el("span", { class: "badge db" }, "database " + p.database) : null, badge),
    budget(p),
    targets(p),
    details(key + "#why", "How the numbers were derived", explanations(p)),
    details(key + "#conditions", "Conditions and recent events", conditions(p), events(p)));
}

function budget(p) {
  if (p.budget === null || p.budget === undefined) {
    return el("p", { class: "budgetline" }, "No budget: " + (reasonOf(p, "Ready") || "not reconciled yet"));
  }
  const max = Math.max(p.budget, p.allocated || 0, p.live || 0, 1);
  const pct = (v) => ((100 * v) / max).toFixed(2) + "%";
  const over = (p.allocated || 0) > p.budget;
  return el("div", {},
    el("p", { class: "budgetline", "data-field": "budgetline" },
      el("b", {}, n(p.allocated)), " of ", el("b", {}, n(p.budget)), " connections allocated · ",
      n(p.unallocated), " unallocated", p.unallocatedReason ? " (" + p.unallocatedReason + ")" : "",
      " · pods ", p.liveAnyNumber ? "may open " : "hold ", el("b", {}, held(p.live, p.liveAnyNumber)), " now",
      p.observed ? el("span", { "data-field": "observed" }, " · PostgreSQL reports ", el("b", {}, n(p.observed.connections)),
        " client connections (max_connections " + n(p.observed.maxConnections) + ")") : null),
    el("div", { class: "bar", role: "img", "aria-label": "allocated " + p.allocated + " of budget " + p.budget },
      el("div", { class: "alloc", style: "width:" + pct(Math.min(p.allocated || 0, p.budget)) }),
      over ? el("div", { class: "over", style: "width:" + pct(p.allocated - p.budget) }) : null,
      p.liveAnyNumber || p.live !== null ? el("div", { class: "live", style: "left:calc(" // any number: the far end
        + pct(p.liveAnyNumber ? max : Math.min(p.live, max)) + " - 2px)" }) : null),
    el("div", { class: "legend" }, el("span", {}, el("i", { class: "a" }), "allocated"),
      el("span", {}, el("i", { class: "f" }), "unallocated budget"), el("span", {}, el("i", { class: "l" }), "held now")));
}

function targets(p) {
  const head = el("tr", {}, ...["Workload", "State", "Basis replicas (fit up to)", "Peak pods", "Pool size (wanted / applied)",
    p.observed ? "Connections (planned / now / at the database)" : "Connections (planned / now)", "Note"].map((h, i) => el("th", { class: i >= 2 && i <= 5 ? "num" : null }, h)));
  const rows = p.targets.map((t) => el("tr", { "data-target": t.name ? t.kind + "/" + t.name : null },
    el("td", {}, t.name ? t.kind + "/" + t.name : "(no workload)"),
    el("td", { class: "state " + t.state }, t.state),
    el("td", { class: "num", "data-field": "fit" }, n(t.basisReplicas)
      + (t.replicasThatFit !== null && t.replicasThatFit !== undefined ? " (≤ " + n(t.replicasThatFit) + ")" : "")),
    el("td", { class: "num", "data-field": "peakPods" }, n(t.peakPods)),
    el("td", { class: "num", "data-field": "poolSize" }, n(t.poolSize) + " / " + n(t.appliedPoolSize),
      t.demand ? el("div", { class: "note", "data-field": "demand" }, t.demand) : null),
    el("td", { class: "num", "data-field": "connections" }, n(t.connections) + " / " + held(t.live, t.liveAnyNumber)
      + (t.observed !== null && t.observed !== undefined ? " / " + n(t.observed) : "")),
    el("td", { class: "note" }, note(t))));
  const omitted = p.targetsOmitted ? el("p", { class: "note" }, p.targetsOmitted + " more targets are not listed in status") : null;
  return el("div", {}, el("table", {}, el("thead", {}, head), el("tbody", {}, rows)), omitted);
}

function note(t) {
  if (t.state === "Pending" && t.raiseAt) {
    return "raise to " + t.poolSize + " waits since " + time(t.pendingSince) + "; applies at " + time(t.raiseAt)
      + " at the earliest" + (t.message ? " (" + t.message + ")" : "");
  }
  return (t.message || "") + (t.resize ? " [resize: " + t.resize + "]" : "");
}

function explanations(p) {
  return el("div", {}, p.budgetExplanation ? el("div", { class: "explain" }, "budget: " + p.budgetExplanation) : null,
    p.targets.filter((t) => t.explanation).map((t) => el("div", { class: "explain" }, t.kind + "/" + t.name + ": " + t.explanation)));
}

function conditions(p) {
  return el("table", {}, el("thead", {}, el("tr", {}, ["Condition", "Status", "Reason", "Since", "Message"].map((h) => el("th", {}, h)))),
    el("tbody", {}, p.conditions.map((c) => el("tr", {}, el("td", {}, c.type),
      el("td", { class: "cond " + c.status + (isBad(c) ? " bad" : "") }, c.status), el("td", {}, c.reason || ""),
      el("td", {}, time(c.since)), el("td", { class: "note" }, c.message || "")))));
}

function events(p) {
  if (p.events.length === 0) return el("p", { class: "note" }, "No recent events.");
  return el("table", {}, el("thead", {}, el("tr", {}, ["Last seen", "Type", "Reason", "Message"].map((h) => el("th", {}, h)))),
    el("tbody", {}, p.events.map((e) => el("tr", {}, el("td", {}, time(e.last)), el("td", {}, e.type), el("td", {}, e.reason),
      el("td", { class: "note" }, e.message + (e.count > 1 ? " (×" + e.count + ")" : ""))))));
}

const isBad = (c) => (c.type === "Ready" ? c.status === "False" : c.type !== "RolloutInProgress" && c.status === "True");
const reasonOf = (p, type) => (p.conditions.find((c) => c.type === type) || {}).message;

function details(key, title, ...body) {
  const d = el("details", { open: state.open.has(key) }, el("summary", {}, title), ...body);
  d.addEventListener("toggle", () => (d.open ? state.open.add(key) : state.open.delete(key)));
  return d;
}

function restart() { state.page = 1; state.lastText = null; poll(); }
document.addEventListener("DOMContentLoaded", () => {
  $("namespace").addEventListener("change", restart);
  $("problems").addEventListener("change", restart);
  let typing;
  $("search").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(restart, 300); });
  $("filters").addEventListener("submit", (e) => e.preventDefault());
  $("prev").addEventListener("click", () => { state.page -= 1; poll(); });
  $("next").addEventListener("click", () => { state.page += 1; poll(); });
  poll();
});
