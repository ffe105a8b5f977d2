// τ-Rec site behaviour: render vega-lite charts from data-spec attributes, sortable tables,
// and the snapshot selector. Idempotent: runs on DOMContentLoaded and on material's document$
// (the latter never fires from file://), and marks what it has already set up.
(function () {
  "use strict";

  function renderCharts(root) {
    if (typeof window.vegaEmbed !== "function") return;
    root.querySelectorAll("div.taurec-chart[data-spec]:not([data-rendered])").forEach(function (el) {
      el.setAttribute("data-rendered", "pending");
      var spec;
      try {
        spec = JSON.parse(el.getAttribute("data-spec"));
      } catch (err) {
        el.setAttribute("data-rendered", "error");
        el.textContent = "Chart spec could not be read.";
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

  function sortTable(table, th) {
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.getAttribute("data-sort") === "num";
    var current = th.getAttribute("aria-sort");
    var direction = current === "ascending" ? "descending" : "ascending";
    if (!current && numeric && th.classList.contains("num")) direction = "descending";
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

  function setUpSelector(root) {
    var select = root.querySelector("select.taurec-snapshot-select:not([data-ready])");
    if (!select) return;
    select.setAttribute("data-ready", "1");
    var fromHash = /^#snapshot=(.+)$/.exec(window.location.hash || "");
    if (fromHash) {
      var wanted = decodeURIComponent(fromHash[1]);
      if (showSnapshot(root, wanted)) select.value = wanted;
    }
    select.addEventListener("change", function () {
      showSnapshot(root, select.value);
      if (window.history && window.history.replaceState) {
        try { window.history.replaceState(null, "", "#snapshot=" + encodeURIComponent(select.value)); } catch (e) { /* file:// */ }
      }
    });
  }

  function init() {
    setUpTables(document);
    setUpSelector(document);
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
