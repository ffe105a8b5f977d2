// τ-Rec site behaviour: render vega-lite charts from data-spec attributes, sortable tables,
// and the snapshot selector. Idempotent: runs on DOMContentLoaded and on material's document$
// (the latter never fires from file://), and marks what it has already set up.
(function () {
  "use strict";

  // A chart div names a shared spec (window.taurecChartSpecs, from assets/chart-specs.js) and
  // carries its own title and data, column-wise: {"entry": [...], "k": [...], ...}.
  function chartSpec(el) {
    var specs = window.taurecChartSpecs || {};
    var template = specs[el.getAttribute("data-chart")];
    if (!template) throw new Error("unknown chart " + el.getAttribute("data-chart"));
    var columns = JSON.parse(el.getAttribute("data-columns"));
    var names = Object.keys(columns), rows = [];
    var count = names.length ? columns[names[0]].length : 0;
    for (var i = 0; i < count; i++) {
      var row = {};
      names.forEach(function (name) { row[name] = columns[name][i]; });
      rows.push(row);
    }
    var spec = JSON.parse(JSON.stringify(template));
    spec.title = el.getAttribute("data-title");
    spec.datasets = { table: rows };
    return spec;
  }

  function renderCharts(root) {
    if (typeof window.vegaEmbed !== "function") return;
    root.querySelectorAll("div.taurec-chart[data-chart]:not([data-rendered])").forEach(function (el) {
      el.setAttribute("data-rendered", "pending");
      var spec;
      try {
        spec = chartSpec(el);
      } catch (err) {
        el.setAttribute("data-rendered", "error");
        el.textContent = "Chart spec could not be read: " + String(err && err.message ? err.message : err);
        return;
      }
      window.vegaEmbed(el, spec, { actions: false, renderer: "svg" })
        .then(function () { el.setAttribute("data-rendered", "svg"); })
        .catch(function (err) {
          el.setAttribute("data-rendered", "error");
          el.textContent = "Chart failed to render: " + String(err && err.message ? err.message : err);
        });
    });
  }

  function cellValue(row, index, numeric) {
    var cell = row.children[index];
    if (!cell) return numeric ? NaN : "";
    var raw = cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent;
    if (!numeric) return (raw || "").toLowerCase();
    return raw === "" || raw === null ? NaN : parseFloat(raw);
  }

  function sortTable(table, th, forced) {
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.getAttribute("data-sort") === "num";
    var current = th.getAttribute("aria-sort");
    var direction = current === "ascending" ? "descending" : "ascending";
    if (!current && numeric && th.classList.contains("num")) direction = "descending";
    if (forced) direction = forced;
    th.parentNode.querySelectorAll("th").forEach(function (other) { other.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", direction);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var sign = direction === "ascending" ? 1 : -1;
    rows.sort(function (a, b) {
      var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric);
      if (numeric) {
        var xn = isNaN(x), yn = isNaN(y);
        if (xn || yn) return xn === yn ? 0 : (xn ? 1 : -1); // undefined values always last
        return sign * (x - y);
      }
      return sign * (x < y ? -1 : x > y ? 1 : 0);
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  function setUpTables(root) {
    root.querySelectorAll("table.sortable:not([data-sortable])").forEach(function (table) {
      table.setAttribute("data-sortable", "1");
      table.querySelectorAll("thead th[data-sort]").forEach(function (th) {
        th.tabIndex = 0;
        th.classList.add("taurec-sortable");
        th.addEventListener("click", function () { sortTable(table, th); });
        th.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sortTable(table, th); }
        });
      });
    });
  }

  function showSnapshot(root, label) {
    var found = false;
    root.querySelectorAll(".taurec-snapshot-view").forEach(function (view) {
      var match = view.getAttribute("data-snapshot") === label;
      found = found || match;
      view.hidden = !match;
    });
    return found;
  }

  // The home page view lives in the address: #snapshot=…&track=…&verified=1&open=1&sort=key:dir
  function readState() {
    var state = {};
    (window.location.hash || "").replace(/^#/, "").split("&").forEach(function (part) {
      var eq = part.indexOf("=");
      if (eq > 0) state[decodeURIComponent(part.slice(0, eq))] = decodeURIComponent(part.slice(eq + 1));
    });
    return state;
  }

  function writeState(state) {
    var parts = [];
    ["snapshot", "track", "verified", "open", "sort"].forEach(function (key) {
      if (state[key]) parts.push(key + "=" + encodeURIComponent(state[key]));
    });
    var hash = parts.length ? "#" + parts.join("&") : "";
    if (window.history && window.history.replaceState) {
      try { window.history.replaceState(null, "", hash || window.location.pathname); return; } catch (e) { /* file:// */ }
    }
    window.location.hash = hash;
  }

  function applyFilters(root, state) {
    root.querySelectorAll("table.taurec-board").forEach(function (table) {
      var shown = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var ok = (!state.track || row.getAttribute("data-track") === state.track) &&
          (state.verified !== "1" || row.getAttribute("data-verified") === "1") &&
          (state.open !== "1" || row.getAttribute("data-open") === "1");
        row.hidden = !ok;
        if (ok) shown += 1;
      });
      var empty = table.parentNode.querySelector(".taurec-filter-empty");
      if (empty) empty.hidden = shown > 0;
    });
  }

  function applySort(root, state) {
    if (!state.sort) return;
    var bits = state.sort.split(":");
    root.querySelectorAll("table.taurec-board").forEach(function (table) {
      var th = table.querySelector('thead th[data-key="' + bits[0] + '"]');
      if (th) sortTable(table, th, bits[1] === "asc" ? "ascending" : "descending");
    });
  }

  function setUpSelector(root) {
    var select = root.querySelector("select.taurec-snapshot-select:not([data-ready])");
    if (!select) return;
    select.setAttribute("data-ready", "1");
    var state = readState();
    if (state.snapshot && showSnapshot(root, state.snapshot)) select.value = state.snapshot;
    var filters = root.querySelectorAll(".taurec-filter");
    filters.forEach(function (input) {
      var value = state[input.name] || "";
      if (input.type === "checkbox") input.checked = value === "1"; else input.value = value;
      input.addEventListener("change", function () {
        var now = readState();
        now[input.name] = input.type === "checkbox" ? (input.checked ? "1" : "") : input.value;
        applyFilters(root, now);
        writeState(now);
      });
    });
    applyFilters(root, state);
    applySort(root, state);
    root.querySelectorAll("table.taurec-board thead th[data-key]").forEach(function (th) {
      th.addEventListener("click", function () {
        var now = readState();
        now.sort = th.getAttribute("data-key") + ":" + (th.getAttribute("aria-sort") === "ascending" ? "asc" : "desc");
        writeState(now);
      });
    });
    select.addEventListener("change", function () {
      showSnapshot(root, select.value);
      var now = readState();
      now.snapshot = select.value;
      writeState(now);
    });
  }

  function setUpTrialPage(root) {
    root.querySelectorAll("button.taurec-expand-all:not([data-ready])").forEach(function (button) {
      button.setAttribute("data-ready", "1");
      button.addEventListener("click", function () {
        var open = button.getAttribute("data-open") !== "1";
        root.querySelectorAll("details.taurec-transcript").forEach(function (d) { d.open = open; });
        button.setAttribute("data-open", open ? "1" : "0");
        button.textContent = open ? "Collapse all transcripts" : "Expand all transcripts";
      });
    });
    // A result (or a run of calls) printed once on the page: following its link opens the trial and the result.
    root.querySelectorAll("a.taurec-same-result:not([data-ready]), a.taurec-same-calls:not([data-ready])").forEach(function (link) {
      link.setAttribute("data-ready", "1");
      link.addEventListener("click", function () {
        var target = root.getElementById(link.getAttribute("href").slice(1));
        for (var node = target; node; node = node.parentElement) {
          if (node.tagName === "DETAILS") node.open = true;
        }
      });
    });
    // Arriving at #trial-N opens that trial's transcript.
    var target = /^#trial-\d+$/.test(window.location.hash || "") && root.querySelector(window.location.hash);
    if (target) {
      var details = target.querySelector("details.taurec-transcript");
      if (details) details.open = true;
    }
  }

  function init() {
    setUpTables(document);
    setUpSelector(document);
    setUpTrialPage(document);
    renderCharts(document);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  }
})();
