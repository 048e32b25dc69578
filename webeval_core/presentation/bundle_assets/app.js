// The viewer of a webeval bundle: runs, the trajectory list (search, filters, sort) and a page per
// trajectory with its steps replayed. Data files are scripts that call webeval.put(name, data), so
// the site opens from file:// as from any static host; nothing is fetched from anywhere else.
// Text from the data is set as text (textContent), never parsed as markup; the only markup inserted
// is the trajectory's sections, escaped by webeval when the bundle was written.
"use strict";

(function () {
  const store = {};
  const waiting = {};
  const shownRows = 500;
  window.webeval = {
    put(name, data) {
      store[name] = data;
      (waiting[name] || []).forEach((resolve) => resolve(data));
      delete waiting[name];
    },
  };

  function load(name, src) {
    if (name in store) return Promise.resolve(store[name]);
    return new Promise((resolve, reject) => {
      const first = !(name in waiting);
      (waiting[name] = waiting[name] || []).push(resolve);
      if (!first) return;
      const script = document.createElement("script");
      script.src = src;
      script.onerror = () => reject(new Error("cannot load " + src));
      document.head.appendChild(script);
    });
  }

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    Object.entries(props || {}).forEach(([key, value]) => {
      if (value == null) return;
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    });
    children.flat().forEach((child) => child != null && node.append(child));
    return node;
  }

  function percent(rate) {
    return rate == null ? "–" : (100 * rate).toFixed(1) + "%";
  }

  function bar(rate) {
    const fill = el("span");
    fill.style.width = (rate == null ? 0 : 100 * rate).toFixed(1) + "%";
    return el("div", { className: "bar" }, fill);
  }

  function link(hash, text) {
    return el("a", { href: "#" + hash, text: text });
  }

  function query(params) {
    const kept = new URLSearchParams();
    Object.entries(params).forEach(([key, value]) => value && kept.set(key, value));
    const said = kept.toString();
    return said ? "?" + said : "";
  }

  const main = document.getElementById("main");
  let view = 0; // a newer route drops what an older one was still loading

  function show(...children) {
    // A part a view leaves out is null: replaceChildren would write it as the text "null".
    main.replaceChildren(...children.flat().filter((child) => child != null));
  }

  // --- runs ---------------------------------------------------------------------------------

  function showRuns() {
    const data = store.runs;
    const rows = data.runs.map((run) =>
      el("tr", {},
        el("td", {}, link("/list" + query({ run: run.key }), run.label)),
        el("td", { className: "num", text: String(run.trajectories) }),
        el("td", { className: "num", text: percent(run.rate) }),
        el("td", {}, bar(run.rate)),
        el("td", { className: "num", text: run.passed + " / " + run.counted }),
        el("td", { className: "num", text: String(run.finished) }),
        el("td", { className: "num", text: run.aborted + (run.crashed ? " (" + run.crashed + " crashed)" : "") }),
        el("td", { className: "num", text: String(run.unfinished) })));
    const head = el("tr", {}, ["run", "trajectories", "success", "", "passed", "finished", "aborted", "unfinished"]
      .map((name) => el("th", { text: name })));
    // Every figure names its judge: the one the app's pages take by default (runs.judges.default_judge).
    // A harness's label brings its article ("the harness's own reward (agentlab)").
    const article = data.judge_label && data.judge_label.startsWith("the ") ? "" : "the ";
    const judged = data.judge_label ? "Success rates: verdicts of " + article + data.judge_label + "; a run it did not score shows none. "
      : "No verdicts yet. ";
    const sites = data.runs.map((run) => el("section", {}, el("h2", { text: "Success by site · " + run.label }),
      el("table", {}, run.sites.map((site) => el("tr", {},
        el("td", {}, link("/list" + query({ run: run.key, site: site.site }), site.site)),
        el("td", { className: "num", text: percent(site.rate) }),
        el("td", {}, bar(site.rate)),
        el("td", { className: "num", text: "of " + site.n }))))));
    show(el("h1", { text: "Runs" }),
      el("p", { className: "muted", text: data.total + " trajectories. " + judged + "Rates count finished tasks with a verdict; aborted and unfinished ones are left out." }),
      el("section", {}, el("table", {}, head, rows)), sites);
  }

  // --- the list -----------------------------------------------------------------------------

  const FILTERS = [
    ["run", "Run", (row) => row.run],
    ["result", "Verdict", (row) => row.result],
    ["site", "Site", (row) => row.site],
    ["tag", "Failure tag", (row) => row.tags],
    ["judge", "Judge", (row) => Object.keys(row.judges)],
  ];
  const collator = new Intl.Collator(undefined, { numeric: true });
  const SORTS = {
    task: (a, b) => collator.compare(String(a.task_id), String(b.task_id)),
    result: (a, b) => collator.compare(String(a.result), String(b.result)),
    steps: (a, b) => (b.steps || 0) - (a.steps || 0),
  };

  function runLabel(key) {
    const run = store.runs.runs.find((r) => r.key === key);
    return run ? run.label : key;
  }

  function loadedRows() {
    const rows = [];
    for (let k = 0; k < store.runs.chunks; k++) {
      (store["list-" + k] || []).forEach((row, i) => rows.push([k * store.runs.chunk + i, row]));
    }
    return rows;
  }

  function matches(row, params) {
    const q = (params.get("q") || "").toLowerCase();
    if (q && ![row.task_id, row.intent, row.site].some((v) => String(v || "").toLowerCase().includes(q))) return false;
    return FILTERS.every(([key, , of]) => {
      const wanted = params.get(key);
      if (!wanted) return true;
      const value = of(row);
      return Array.isArray(value) ? value.includes(wanted) : String(value) === wanted;
    });
  }

  function filterControls(params, rows) {
    const apply = (key, value) => {
      const next = new URLSearchParams(params);
      if (value) next.set(key, value); else next.delete(key);
      location.hash = "/list" + query(Object.fromEntries(next));
    };
    const search = el("input", { type: "search", value: params.get("q") || "", placeholder: "task text, id or site",
      "aria-label": "Search" });
    search.addEventListener("change", () => apply("q", search.value.trim()));
    const selects = FILTERS.map(([key, label, of]) => {
      const values = new Set();
      rows.forEach(([, row]) => [].concat(of(row)).forEach((v) => v != null && values.add(String(v))));
      const select = el("select", { "aria-label": label }, el("option", { value: "", text: "any" }),
        [...values].sort().map((v) => el("option", { value: v, text: key === "run" ? runLabel(v) : v })));
      select.value = params.get(key) || "";
      select.addEventListener("change", () => apply(key, select.value));
      return el("label", {}, label, select);
    });
    const sort = el("select", { "aria-label": "Sort" }, el("option", { value: "", text: "run" }),
      Object.keys(SORTS).map((k) => el("option", { value: k, text: k })));
    sort.value = params.get("sort") || "";
    sort.addEventListener("change", () => apply("sort", sort.value));
    return el("div", { className: "filters" }, el("label", {}, "Search", search), selects, el("label", {}, "Sort", sort));
  }

  function listTable(rows, params) {
    const head = el("tr", {}, ["task", "run", "site", "verdict", "steps", "intent"].map((t) => el("th", { text: t })));
    const back = query(Object.fromEntries(params));
    const body = rows.slice(0, shownRows).map(([number, row]) => el("tr", {},
      el("td", {}, link("/t/" + number + query({ from: back }), String(row.task_id))),
      el("td", { text: runLabel(row.run) }),
      el("td", { text: row.site || "unknown" }),
      el("td", {}, el("span", { className: "badge " + (row.result || ""), text: row.result || "unknown" })),
      el("td", { className: "num", text: String(row.steps) }),
      el("td", { text: (row.intent || "").slice(0, 160) })));
    return el("table", {}, head, body);
  }

  function renderList(params, mine) {
    if (mine !== view) return;
    const all = loadedRows();
    const kept = all.filter(([, row]) => matches(row, params));
    const sort = params.get("sort");
    if (sort && SORTS[sort]) kept.sort((a, b) => SORTS[sort](a[1], b[1])); // else the list's own order: by run
    const loading = all.length < store.runs.total ? " (" + all.length + " of " + store.runs.total + " loaded…)" : "";
    show(el("h1", { text: "Trajectories" }), filterControls(params, all),
      el("p", { className: "muted", id: "count", text: kept.length + " trajectories" + loading +
        (kept.length > shownRows ? "; the first " + shownRows + " shown" : "") }),
      listTable(kept, params));
  }

  function showList(params) {
    const mine = ++view;
    const chunks = store.runs.chunks;
    // The first chunk is drawn at once; later ones are drawn at most every 400 ms, and once at the end.
    let pending = null;
    const later = () => {
      if (pending === null) pending = setTimeout(() => { pending = null; renderList(params, mine); }, 400);
    };
    load("list-0", "data/list-0.js").then(() => {
      renderList(params, mine);
      let chain = Promise.resolve();
      for (let k = 1; k < chunks; k++) {
        chain = chain.then(() => mine === view && load("list-" + k, "data/list-" + k + ".js")).then(later);
      }
    });
  }

  // --- a trajectory -------------------------------------------------------------------------

  function stepView(data, at, params) {
    const steps = data.steps;
    if (!steps.length) return el("section", {}, el("p", { className: "muted", text: "Nothing to replay: no steps and no screenshots." }));
    const k = Math.min(Math.max(at, 1), steps.length);
    const step = steps[k - 1];
    const go = (to) => {
      const next = new URLSearchParams(params);
      next.set("step", String(to));
      location.hash = "/t/" + data.number + "?" + next.toString();
    };
    const frame = el("div", { className: "frame" });
    if (step.image) frame.append(el("img", { src: step.image, alt: "screenshot of step " + step.n }));
    else frame.append(el("p", { className: "muted", text: "No screenshot for this step." }));
    if (step.image && step.point) {
      const mark = el("div", { className: "mark" });
      mark.style.left = (100 * step.point[0]).toFixed(2) + "%";
      mark.style.top = (100 * step.point[1]).toFixed(2) + "%";
      frame.append(mark);
    }
    const facts = el("dl", {},
      step.url ? [el("dt", { text: "URL" }), el("dd", { text: step.url })] : [],
      step.typed ? [el("dt", { text: "Typed" }), el("dd", { text: step.typed })] : [],
      step.thought ? [el("dt", { text: "Thought" }), el("dd", { text: step.thought })] : []);
    return el("section", { id: "replay" },
      el("h2", { text: "Step " + k + " of " + steps.length + (step.action ? " · " + step.action : "") }),
      el("div", { className: "steps" },
        el("button", { text: "◀ Previous", disabled: k === 1 ? "" : null, onclick: () => go(k - 1) }),
        el("button", { text: "Next ▶", disabled: k === steps.length ? "" : null, onclick: () => go(k + 1) }),
        el("span", { className: "muted", text: "← → step" })),
      frame, facts);
  }

  function annotationsView(row) {
    const said = row.annotations;
    if (!said) return null;
    const facts = el("dl", {},
      el("dt", { text: "Published verdict" }), el("dd", { text: said.published + (said.why ? " — " + said.why : "") }),
      el("dt", { text: "Reviews" }), el("dd", { text: said.reviews + (said.majority ? ", majority: " + said.majority : "") }),
      said.reviewers ? [el("dt", { text: "Who said what" }), el("dd", { text: said.reviewers })] : []);
    return el("section", { id: "annotations" }, el("h2", { text: "Published and reviewed" }), facts);
  }

  function showTrajectory(number, params) {
    const mine = ++view;
    load("t-" + number, "data/t/" + number + ".js").then((data) => {
      if (mine !== view) return;
      // The sections are markup escaped by webeval when the bundle was written: the header first,
      // then the replay, then the verdict, judges, answer and expected vs actual.
      const header = el("div");
      header.innerHTML = data.sections.slice(0, 1).join("");
      const rest = el("div");
      rest.innerHTML = data.sections.slice(1).join("");
      const from = params.get("from");
      show(el("p", {}, link("/list" + (from || ""), "← the list")), header, annotationsView(data.row),
        stepView(data, Number(params.get("step") || 1), params), rest);
      document.onkeydown = (event) => {
        if (event.target.closest && event.target.closest("input, select, textarea")) return;
        const at = Number(params.get("step") || 1);
        const next = new URLSearchParams(params);
        if (event.key === "ArrowRight" && at < data.steps.length) next.set("step", String(at + 1));
        else if (event.key === "ArrowLeft" && at > 1) next.set("step", String(at - 1));
        else return;
        location.hash = "/t/" + number + "?" + next.toString();
      };
    }, () => show(el("p", { text: "This trajectory is not in the bundle (its folder could not be read)." })));
  }

  function route() {
    document.onkeydown = null;
    const hash = location.hash.slice(1) || "/";
    const [path, search] = hash.split("?");
    const params = new URLSearchParams(search || "");
    if (path.startsWith("/t/")) showTrajectory(Number(path.slice(3)), params);
    else if (path === "/list") showList(params);
    else { view++; showRuns(); }
  }

  window.addEventListener("hashchange", route);
  load("runs", "data/runs.js").then(route, () => show(el("p", { text: "This bundle has no data/runs.js." })));
})();
