// The page's script, inlined into report.html after uPlot: draws every chart of the model with
// uPlot, marks (percentiles, SLOs, the knee) as lines, and leaves a summary of what it drew in
// window.__servebenchReport (the browser tests read it). Plain ES2017, no imports, no network.
export const CLIENT_JS = String.raw`
(function () {
  'use strict';
  var model = JSON.parse(document.getElementById('report-data').textContent);
  var drawn = [];
  function drawMarks(u, marks) {
    var ctx = u.ctx, b = u.bbox, px = window.devicePixelRatio || 1;
    ctx.save();
    ctx.font = (11 * px) + 'px sans-serif';
    ctx.lineWidth = 1 * px;
    ctx.setLineDash([5 * px, 4 * px]);
    marks.forEach(function (m, i) {
      ctx.strokeStyle = m.color;
      ctx.fillStyle = m.color;
      ctx.beginPath();
      if (m.axis === 'x') {
        var x = u.valToPos(m.value, 'x', true);
        if (!(x >= b.left && x <= b.left + b.width)) return;
        ctx.moveTo(x, b.top); ctx.lineTo(x, b.top + b.height); ctx.stroke();
        ctx.fillText(m.label, x + 3 * px, b.top + (12 + 12 * (i % 4)) * px);
      } else {
        var y = u.valToPos(m.value, 'y', true);
        if (!(y >= b.top && y <= b.top + b.height)) return;
        ctx.moveTo(b.left, y); ctx.lineTo(b.left + b.width, y); ctx.stroke();
        ctx.fillText(m.label, b.left + 4 * px, y - 4 * px);
      }
    });
    ctx.restore();
  }
  function seriesOpts(s) {
    var o = { label: s.label, stroke: s.color, width: 1.5, spanGaps: true, scale: s.scale || 'y' };
    if (s.kind === 'points') {
      o.paths = function () { return null; };
      o.points = { show: true, size: 4, width: 0, fill: s.color, stroke: s.color };
    } else if (s.kind === 'bars') {
      o.paths = uPlot.paths.bars({ size: [0.9, 80] });
      o.fill = s.color + '99';
      o.points = { show: false };
    } else if (s.kind === 'step') {
      o.paths = uPlot.paths.stepped({ align: 1 });
      o.points = { show: false };
    } else {
      o.points = { show: s.kind === 'linepoints', size: 7, fill: s.color };
    }
    return o;
  }
  function render(spec) {
    var el = document.querySelector('[data-chart="' + spec.id + '"] .chart');
    var width = Math.max(320, Math.min(el.clientWidth || 540, 1100));
    var axes = [{ label: spec.x.label }, { label: spec.y.label, scale: 'y' }];
    var scales = { x: { time: false }, y: { auto: true } };
    if (spec.y2) {
      axes.push({ label: spec.y2.label, scale: 'y2', side: 1, grid: { show: false } });
      scales.y2 = { auto: true };
    }
    var opts = {
      width: width,
      height: 260,
      series: [{ label: spec.x.label }].concat(spec.series.map(seriesOpts)),
      axes: axes,
      scales: scales,
      legend: { show: true },
      hooks: { draw: [function (u) { drawMarks(u, spec.marks); }] }
    };
    var u = new uPlot(opts, spec.data, el);
    var perSeries = [];
    for (var i = 1; i < spec.data.length; i++) {
      var n = 0;
      for (var j = 0; j < spec.data[i].length; j++) if (spec.data[i][j] !== null) n++;
      perSeries.push(n);
    }
    var points = perSeries.reduce(function (a, b) { return a + b; }, 0);
    drawn.push({ id: spec.id, series: u.series.length - 1, points: points, seriesPoints: perSeries });
  }
  model.sections.forEach(function (s) { s.charts.forEach(render); });
  window.__servebenchReport = { charts: drawn, kind: model.kind, runs: model.runs.length };
  document.body.setAttribute('data-rendered', 'true');
})();
`;
