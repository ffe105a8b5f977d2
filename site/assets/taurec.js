// τ-Rec site behaviour: render vega-lite charts from data-spec attributes, sortable tables,
// the snapshot selector and the board's column picker. Idempotent: runs on DOMContentLoaded and
// on material's document$ (the latter never fires from file://), and marks what it has already set up.
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

  // The column picker of the home page: one labelled checkbox per header cell of the board,
  // applied to every table of the snapshot views (ranked, unranked, reference). A column's default
  // comes from its class (taurec-more: picked only; taurec-laptop: not below 1200 px; taurec-wide:
  // not on phones; the breakpoints are those of taurec.css); a reader's choices override it and are
  // kept per screen class (phone, tablet, wide) in localStorage, so they survive a reload and
  // material's instant navigation. Without storage they last for the page.
  var PHONE = "(max-width: 699px)", TABLET = "(max-width: 1199px)";
  var memory = {};

  function screenClass() {
    if (!window.matchMedia) return "wide";
    if (window.matchMedia(PHONE).matches) return "phone";
    return window.matchMedia(TABLET).matches ? "tablet" : "wide";
  }

  function loadChoices() {
    var key = "taurec.columns." + screenClass();
    try {
      var stored = JSON.parse(window.localStorage.getItem(key) || "null");
      if (stored && typeof stored === "object" && !Array.isArray(stored)) return stored;
    } catch (e) { /* no storage (private mode, some file:// setups): keep it for the page */ }
    return memory[key] || {};
  }

  function saveChoices(choices) {
    var key = "taurec.columns." + screenClass();
    memory[key] = choices;
    try {
      if (Object.keys(choices).length) window.localStorage.setItem(key, JSON.stringify(choices));
      else window.localStorage.removeItem(key);
    } catch (e) { /* see loadChoices */ }
  }

  function columnShown(th, choices) {
    var key = th.getAttribute("data-key");
    if (Object.prototype.hasOwnProperty.call(choices, key)) return choices[key] === true;
    var screen = screenClass();
    if (th.classList.contains("taurec-more")) return false;
    if (th.classList.contains("taurec-laptop") && screen !== "wide") return false;
    return !(th.classList.contains("taurec-wide") && screen === "phone");
  }

  function columnTables(root) {
    return Array.prototype.filter.call(root.querySelectorAll(".taurec-snapshot-view table"), function (table) {
      return table.tHead && table.tHead.querySelector("th[data-key]");
    });
  }

  function applyColumns(root) {
    var choices = loadChoices();
    columnTables(root).forEach(function (table) {
      var heads = table.tHead.rows[0].cells;
      var rows = Array.prototype.slice.call(table.tBodies[0] ? table.tBodies[0].rows : []);
      for (var i = 0; i < heads.length; i++) {
        var hide = !columnShown(heads[i], choices);
        heads[i].hidden = hide;
        rows.forEach(function (row) { if (row.cells[i]) row.cells[i].hidden = hide; });
      }
      table.setAttribute("data-columns", "1");
    });
    root.querySelectorAll("details.taurec-columns[data-ready]").forEach(function (picker) {
      var boxes = picker.querySelectorAll("input[name=column]"), shown = 0;
      boxes.forEach(function (box) {
        box.checked = columnShown(box.taurecHead, choices);
        if (box.checked) shown += 1;
      });
      var count = picker.querySelector(".taurec-columns-count");
      if (count) count.textContent = "(" + shown + " of " + boxes.length + " shown)";
    });
  }

  function setUpColumns(root) {
    var picker = root.querySelector("details.taurec-columns:not([data-ready])");
    var source = columnTables(root)[0];
    if (!picker || !source) return;
    picker.setAttribute("data-ready", "1");
    var list = picker.querySelector(".taurec-columns-list");
    Array.prototype.forEach.call(source.tHead.querySelectorAll("th[data-key]"), function (th) {
      var name = th.cloneNode(true);
      name.querySelectorAll(".taurec-dir").forEach(function (e) { e.remove(); });
      var label = root.createElement("label");
      var box = root.createElement("input");
      box.type = "checkbox";
      box.name = "column";
      box.value = th.getAttribute("data-key");
      box.taurecHead = th;
      box.addEventListener("change", function () {
        var choices = loadChoices();
        choices[box.value] = box.checked;
        saveChoices(choices);
        applyColumns(root);
      });
      label.appendChild(box);
      label.appendChild(root.createTextNode(" " + name.textContent.trim()));
      list.appendChild(label);
    });
    picker.querySelector("button.taurec-columns-all").addEventListener("click", function () {
      var all = {};
      picker.querySelectorAll("input[name=column]").forEach(function (box) { all[box.value] = true; });
      saveChoices(all);
      applyColumns(root);
    });
    picker.querySelector("button.taurec-columns-reset").addEventListener("click", function () {
      saveChoices({});
      applyColumns(root);
    });
    if (window.matchMedia) {
      var again = function () { if (root.contains(picker)) applyColumns(root); };
      [PHONE, TABLET].forEach(function (media) {
        var query = window.matchMedia(media);
        if (query.addEventListener) query.addEventListener("change", again);
      });
    }
    applyColumns(root);
    picker.hidden = false;
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
    setUpColumns(document);
    setUpTrialPage(document);
    renderCharts(document);
  }

  // The theme hands its search box to lunr, which reads "^" as a boost and finds nothing for
  // "pass^k": the caret becomes a space before the theme sees the query (capture phase).
  document.addEventListener("input", function (event) {
    var box = event.target;
    if (!box || !box.matches || !box.matches("input.md-search__input")) return;
    if (box.value.indexOf("^") < 0) return;
    var caret = box.selectionStart;
    box.value = box.value.replace(/\^/g, " ");
    if (caret !== null) box.setSelectionRange(caret, caret);
  }, true);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  }
})();
