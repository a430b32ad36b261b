// The session's charts (templates/play/history_charts.html), drawn by Chart.js from the figures the
// page carries as JSON (Django's json_script). Every chart has its numbers in a table below it as
// well; without scripts the tables are what the page shows.
(function () {
  "use strict";
  if (!window.Chart) return;
  var page = document.querySelector("[data-charts]");
  if (!page) return;
  var style = getComputedStyle(page);
  // The colours live in history.css (custom properties), shared with the tables' swatches.
  function colour(name) { return style.getPropertyValue("--c-" + name).trim() || "#5b5045"; }
  function figures(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }
  var ink = style.getPropertyValue("--ink").trim(), line = style.getPropertyValue("--line").trim();
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.font.size = 13;
  Chart.defaults.color = ink;
  Chart.defaults.borderColor = line;
  Chart.defaults.locale = document.documentElement.lang || "es";
  Chart.defaults.animation = false; // a record read after the game: drawn at once
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.plugins.legend.labels.boxWidth = 14;
  var whole = { precision: 0 }; // counts of cards and checks: whole numbers on every axis

  function draw(canvas, config) {
    canvas.parentElement.style.height = config.height + "rem";
    delete config.height;
    return new Chart(canvas, config);
  }

  function lineSeries(series) {
    return series.map(function (s) {
      return {
        label: s.label, borderColor: colour(s.colour), backgroundColor: colour(s.colour),
        data: s.data.map(function (p) { return { x: p[0], y: p[1] }; }),
        borderWidth: 2.5, pointRadius: 0, pointHitRadius: 6, tension: 0,
      };
    });
  }

  var charts = {};
  var outcomes = figures("outcomes-figures"), canvas = document.getElementById("outcomes-chart");
  if (outcomes && canvas) {
    charts.outcomes = draw(canvas, {
      type: "bar", height: 4 + 2.4 * outcomes.labels.length,
      data: {
        labels: outcomes.labels,
        datasets: outcomes.series.map(function (s) {
          return { label: s.label, data: s.data, backgroundColor: colour(s.colour), maxBarThickness: 28 };
        }),
      },
      options: {
        indexAxis: "y",
        scales: { x: { stacked: true, ticks: whole }, y: { stacked: true, grid: { display: false } } },
        plugins: { tooltip: { mode: "index", filter: function (item) { return item.raw > 0; } } },
      },
    });
  }

  var suits = figures("suits-figures");
  canvas = document.getElementById("suits-chart");
  if (suits && canvas) {
    charts.suits = draw(canvas, {
      type: "bar", height: 14,
      data: {
        labels: suits.labels,
        datasets: suits.series.map(function (s) {
          return { label: s.label, data: s.data, backgroundColor: s.colours.map(colour), maxBarThickness: 64 };
        }),
      },
      options: {
        scales: { y: { ticks: whole }, x: { grid: { display: false }, ticks: { font: { size: 18 } } } },
        plugins: { legend: { display: false } },
      },
    });
  }

  var decks = figures("decks-figures");
  canvas = document.getElementById("decks-chart");
  if (decks && canvas) {
    charts.decks = draw(canvas, {
      type: "line", height: 18,
      data: { datasets: lineSeries(decks.series) },
      options: {
        parsing: false,
        interaction: { mode: "nearest", axis: "x", intersect: false },
        scales: {
          x: { type: "linear", min: 0, max: decks.events, title: { display: true, text: decks.x }, ticks: whole },
          y: { min: 0, title: { display: true, text: decks.y }, ticks: whole },
        },
      },
    });
  }

  document.querySelectorAll("canvas[data-track]").forEach(function (canvas) {
    var track = figures(canvas.dataset.track + "-figures");
    if (!track) return;
    var names = {};
    track.levels.forEach(function (level) { names[level[0]] = level[1]; });
    var lowest = track.levels[0][0], highest = track.levels[track.levels.length - 1][0];
    charts[canvas.dataset.track] = draw(canvas, {
      type: "line", height: 4 + 2 * track.levels.length,
      data: { datasets: lineSeries(track.series) },
      options: {
        parsing: false,
        interaction: { mode: "nearest", axis: "x", intersect: false },
        scales: {
          x: { type: "linear", min: 0, ticks: { display: false }, grid: { display: false } },
          y: {
            min: lowest, max: highest,
            ticks: { stepSize: 1, callback: function (value) { return names[value]; } },
          },
        },
        plugins: {
          tooltip: {
            callbacks: {
              title: function () { return ""; },
              label: function (item) { return item.dataset.label + ": " + names[item.parsed.y]; },
            },
          },
        },
      },
    });
  });
  page.dataset.charts = Object.keys(charts).join(" "); // what was drawn (the browser tests read it)
})();
