import { createHash } from 'node:crypto';
import { SIGNATURE_MAX_HEIGHT, SIGNATURE_MAX_WIDTH } from '../domain/esign/esign.signature';

/**
 * The signing page's own stylesheet and script, served from this service (no CDN, no outside
 * asset; the page's Content-Security-Policy allows nothing else). Each is served under a name
 * carrying its hash, so a browser may keep it for a year and a new version is fetched at once.
 */

const CSS = `
:root {
  --ink: #1f2328;
  --muted: #4b5563;
  --line: #8c959f;
  --paper: #ffffff;
  --wash: #f3f4f6;
  --accent: #1d4ed8;
  --accent-dark: #1e3a8a;
  --error: #b91c1c;
  --ok: #166534;
  --focus: #111827;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--wash);
  color: var(--ink);
  font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
.skip {
  position: absolute;
  left: 0.5rem;
  top: -3rem;
  background: var(--paper);
  padding: 0.5rem 0.75rem;
  z-index: 10;
}
.skip:focus { top: 0.5rem; }
.site {
  background: var(--paper);
  border-bottom: 1px solid var(--line);
}
.site p {
  margin: 0 auto;
  max-width: 46rem;
  padding: 0.75rem 1rem;
  font-weight: 700;
  font-size: 1.05rem;
  overflow-wrap: anywhere;
}
main {
  display: block;
  max-width: 46rem;
  margin: 0 auto;
  padding: 1rem 1rem 3rem;
}
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.75rem 0 0.5rem; }
h2 { font-size: 1.25rem; line-height: 1.3; margin: 0 0 0.5rem; }
p { margin: 0 0 0.75rem; }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:hover { color: var(--accent-dark); }
:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
  box-shadow: 0 0 0 5px #fde68a;
}
.lead { font-size: 1.05rem; }
.card {
  background: var(--paper);
  border: 1px solid var(--line);
  border-radius: 0.5rem;
  padding: 1rem;
  margin: 1rem 0;
}
.contents { margin: 0 0 1rem; padding-left: 1.4rem; }
.document-text {
  max-height: 22rem;
  overflow: auto;
  border: 1px solid var(--line);
  border-radius: 0.375rem;
  padding: 0.75rem 1rem;
  background: #fcfcfd;
  font-family: Georgia, "Times New Roman", serif;
  overflow-wrap: anywhere;
}
.document-text p { white-space: pre-wrap; }
.download { display: inline-block; margin-top: 0.75rem; font-weight: 600; }
/* In a list the link stays inline, so a wrapped one keeps its bullet on its first line. */
.downloads li { margin-top: 0.75rem; }
.downloads .download { display: inline; margin-top: 0; }
#documents:focus { outline: none; }
.signed-note { color: var(--ok); font-weight: 600; }
fieldset { border: 0; padding: 0; margin: 0 0 1.25rem; min-width: 0; }
legend { font-weight: 700; font-size: 1.1rem; padding: 0; margin-bottom: 0.5rem; }
.consent-text { font-size: 0.95rem; }
.check { display: flex; gap: 0.75rem; align-items: flex-start; }
.check input {
  flex: none;
  width: 1.5rem;
  height: 1.5rem;
  margin: 0.1rem 0 0;
  accent-color: var(--accent);
}
.check label { font-weight: 600; }
.field { margin: 0 0 1.25rem; }
.field > label, .label { display: block; font-weight: 700; margin-bottom: 0.25rem; }
.hint { color: var(--muted); font-size: 0.95rem; margin-bottom: 0.5rem; }
input[type="text"] {
  width: 100%;
  font: inherit;
  font-size: 1.1rem;
  padding: 0.6rem 0.75rem;
  border: 2px solid var(--ink);
  border-radius: 0.375rem;
  background: var(--paper);
  color: var(--ink);
}
.pad {
  display: block;
  width: 100%;
  height: 11rem;
  border: 2px dashed var(--ink);
  border-radius: 0.375rem;
  background: var(--paper);
  touch-action: none;
  cursor: crosshair;
}
.pad-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.5rem; }
button {
  font: inherit;
  font-weight: 700;
  border-radius: 0.375rem;
  padding: 0.65rem 1.1rem;
  min-height: 2.75rem;
  cursor: pointer;
}
button.secondary { background: var(--paper); color: var(--ink); border: 2px solid var(--ink); }
button.primary {
  background: var(--accent);
  color: #ffffff;
  border: 2px solid var(--accent);
  font-size: 1.1rem;
  width: 100%;
}
button.primary:hover { background: var(--accent-dark); border-color: var(--accent-dark); }
button[disabled] { opacity: 0.7; cursor: progress; }
.status { min-height: 1.5rem; color: var(--muted); font-size: 0.95rem; margin: 0.25rem 0 0; }
.errors {
  border: 3px solid var(--error);
  border-radius: 0.5rem;
  padding: 0.75rem 1rem;
  background: var(--paper);
  margin: 0 0 1.25rem;
}
.errors h3 { margin: 0 0 0.5rem; font-size: 1.1rem; color: var(--error); }
.errors ul { margin: 0; padding-left: 1.2rem; }
.errors a { color: var(--error); font-weight: 600; }
.field-error { color: var(--error); font-weight: 600; margin: 0.25rem 0 0.5rem; }
.invalid input[type="text"], .invalid .pad { border-color: var(--error); border-style: solid; }
footer {
  max-width: 46rem;
  margin: 0 auto;
  padding: 0 1rem 2rem;
  color: var(--muted);
  font-size: 0.9rem;
}
@media (min-width: 48rem) {
  main { padding-top: 1.5rem; }
  .card { padding: 1.5rem; }
  button.primary { width: auto; min-width: 16rem; }
}
@media (forced-colors: active) {
  .pad { border-color: CanvasText; }
}
`;

// The page exports within the pixel budget the service takes, with room for rounding.
const EXPORT_MAX_WIDTH = SIGNATURE_MAX_WIDTH - 200;
const EXPORT_MAX_HEIGHT = SIGNATURE_MAX_HEIGHT - 100;

const JS = `
(function () {
  'use strict';
  var form = document.getElementById('sign');
  var errors = document.getElementById('errors');
  if (errors) errors.focus();
  if (!form) return;
  var canvas = document.getElementById('signature-pad');
  var field = document.getElementById('signature');
  var nameInput = document.getElementById('name');
  var status = document.getElementById('signature-status');
  var submit = document.getElementById('submit');
  var context = canvas.getContext('2d');
  var strokes = [];
  var current = null;
  var typed = null;
  var LINE = 2.5;
  var MAX_WIDTH = ${EXPORT_MAX_WIDTH};
  var MAX_HEIGHT = ${EXPORT_MAX_HEIGHT};
  var TYPED_FONT = 'italic 36px "Segoe Script", "Brush Script MT", "URW Chancery L", cursive, serif';

  function say(text) { status.textContent = text; }

  function resize() {
    var box = canvas.getBoundingClientRect();
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(box.width * ratio));
    canvas.height = Math.max(1, Math.round(box.height * ratio));
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    redraw();
  }

  function drawStrokes(target, strokeList, dx, dy) {
    target.lineWidth = LINE;
    target.lineCap = 'round';
    target.lineJoin = 'round';
    target.strokeStyle = '#111111';
    target.fillStyle = '#111111';
    strokeList.forEach(function (stroke) {
      target.beginPath();
      target.moveTo(stroke[0].x - dx, stroke[0].y - dy);
      if (stroke.length === 1) target.lineTo(stroke[0].x - dx + 0.1, stroke[0].y - dy + 0.1);
      for (var i = 1; i < stroke.length; i++) target.lineTo(stroke[i].x - dx, stroke[i].y - dy);
      target.stroke();
    });
  }

  function typedLayout() {
    var box = canvas.getBoundingClientRect();
    context.font = TYPED_FONT;
    var width = context.measureText(typed).width;
    var scale = Math.min(1, (box.width - 24) / Math.max(width, 1));
    return { x: 12, y: box.height * 0.62, scale: scale, width: width * scale, size: 36 * scale };
  }

  function redraw() {
    var box = canvas.getBoundingClientRect();
    context.clearRect(0, 0, box.width, box.height);
    drawStrokes(context, strokes, 0, 0);
    if (typed) {
      var layout = typedLayout();
      context.save();
      context.translate(layout.x, layout.y);
      context.scale(layout.scale, layout.scale);
      context.font = TYPED_FONT;
      context.fillStyle = '#111111';
      context.fillText(typed, 0, 0);
      context.restore();
    }
  }

  function pointOf(event) {
    var box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  function begin(point) {
    typed = null;
    current = [point];
    strokes.push(current);
    redraw();
  }

  function extend(points) {
    if (!current) return;
    points.forEach(function (point) { current.push(point); });
    redraw();
  }

  function end() {
    if (!current) return;
    current = null;
    field.value = '';
    say('Signature drawn. Press Clear to start again.');
  }

  if (window.PointerEvent) {
    canvas.addEventListener('pointerdown', function (event) {
      if (event.button !== undefined && event.button > 0) return;
      event.preventDefault();
      if (canvas.setPointerCapture) canvas.setPointerCapture(event.pointerId);
      begin(pointOf(event));
    });
    canvas.addEventListener('pointermove', function (event) {
      if (!current) return;
      event.preventDefault();
      var events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
      extend((events.length ? events : [event]).map(pointOf));
    });
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
  } else {
    canvas.addEventListener('touchstart', function (event) {
      event.preventDefault();
      begin(pointOf(event.touches[0]));
    }, { passive: false });
    canvas.addEventListener('touchmove', function (event) {
      event.preventDefault();
      extend([pointOf(event.touches[0])]);
    }, { passive: false });
    canvas.addEventListener('touchend', end);
    canvas.addEventListener('mousedown', function (event) { begin(pointOf(event)); });
    canvas.addEventListener('mousemove', function (event) { extend([pointOf(event)]); });
    window.addEventListener('mouseup', end);
  }

  document.getElementById('clear-signature').addEventListener('click', function () {
    strokes = [];
    current = null;
    typed = null;
    field.value = '';
    redraw();
    say('Signature cleared.');
  });

  document.getElementById('type-signature').addEventListener('click', function () {
    var name = nameInput.value.replace(/\\s+/g, ' ').trim();
    if (!name) {
      say('Type your full name first, then press this button again.');
      nameInput.focus();
      return;
    }
    strokes = [];
    typed = name;
    redraw();
    say('Signature made from your typed name: ' + name + '.');
  });

  /**
   * The signature cropped to its ink and to the pad, at twice its size on screen (less when that
   * would pass the service's pixel budget), as a PNG data URL.
   */
  function exportSignature() {
    var left, top, right, bottom;
    if (typed) {
      var layout = typedLayout();
      left = layout.x - 4;
      right = layout.x + layout.width + 8;
      top = layout.y - layout.size;
      bottom = layout.y + layout.size * 0.45;
    } else if (strokes.length) {
      left = Infinity; top = Infinity; right = -Infinity; bottom = -Infinity;
      strokes.forEach(function (stroke) {
        stroke.forEach(function (p) {
          left = Math.min(left, p.x); right = Math.max(right, p.x);
          top = Math.min(top, p.y); bottom = Math.max(bottom, p.y);
        });
      });
      left -= LINE * 2; top -= LINE * 2; right += LINE * 2; bottom += LINE * 2;
    } else {
      return '';
    }
    var box = canvas.getBoundingClientRect();
    left = Math.max(left, 0); top = Math.max(top, 0);
    right = Math.min(right, box.width); bottom = Math.min(bottom, box.height);
    if (right <= left || bottom <= top) return '';
    var scale = Math.min(2, MAX_WIDTH / (right - left), MAX_HEIGHT / (bottom - top));
    var out = document.createElement('canvas');
    out.width = Math.max(1, Math.ceil((right - left) * scale));
    out.height = Math.max(1, Math.ceil((bottom - top) * scale));
    var target = out.getContext('2d');
    target.scale(scale, scale);
    if (typed) {
      var l = typedLayout();
      target.translate(l.x - left, l.y - top);
      target.scale(l.scale, l.scale);
      target.font = TYPED_FONT;
      target.fillStyle = '#111111';
      target.fillText(typed, 0, 0);
    } else {
      drawStrokes(target, strokes, left, top);
    }
    return out.toDataURL('image/png');
  }

  form.addEventListener('submit', function () {
    field.value = exportSignature();
    submit.disabled = true;
    submit.textContent = 'Signing...';
  });

  window.addEventListener('pageshow', function () {
    submit.disabled = false;
    submit.textContent = submit.getAttribute('data-label');
  });
  window.addEventListener('resize', resize);
  resize();
})();
`;

function named(base: string, extension: string, content: string) {
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 12);
  return { path: `/sign/assets/${base}.${hash}.${extension}`, content };
}

export const SIGNING_STYLESHEET = named('page', 'css', CSS.trimStart());
export const SIGNING_SCRIPT = named('page', 'js', JS.trimStart());
