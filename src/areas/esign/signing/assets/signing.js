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
  // The page puts the service's pixel budget on the pad (signing.pages.ts), so it lives in one place.
  var MAX_WIDTH = Number(canvas.getAttribute('data-max-width'));
  var MAX_HEIGHT = Number(canvas.getAttribute('data-max-height'));
  var TYPED_FONT = 'italic 36px "Segoe Script", "Brush Script MT", "URW Chancery L", cursive, serif';

  function say(text) {
    status.textContent = text;
  }

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
    points.forEach(function (point) {
      current.push(point);
    });
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
    canvas.addEventListener(
      'touchstart',
      function (event) {
        event.preventDefault();
        begin(pointOf(event.touches[0]));
      },
      { passive: false },
    );
    canvas.addEventListener(
      'touchmove',
      function (event) {
        event.preventDefault();
        extend([pointOf(event.touches[0])]);
      },
      { passive: false },
    );
    canvas.addEventListener('touchend', end);
    canvas.addEventListener('mousedown', function (event) {
      begin(pointOf(event));
    });
    canvas.addEventListener('mousemove', function (event) {
      extend([pointOf(event)]);
    });
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
    var name = nameInput.value.replace(/\s+/g, ' ').trim();
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
      left = Infinity;
      top = Infinity;
      right = -Infinity;
      bottom = -Infinity;
      strokes.forEach(function (stroke) {
        stroke.forEach(function (p) {
          left = Math.min(left, p.x);
          right = Math.max(right, p.x);
          top = Math.min(top, p.y);
          bottom = Math.max(bottom, p.y);
        });
      });
      left -= LINE * 2;
      top -= LINE * 2;
      right += LINE * 2;
      bottom += LINE * 2;
    } else {
      return '';
    }
    var box = canvas.getBoundingClientRect();
    left = Math.max(left, 0);
    top = Math.max(top, 0);
    right = Math.min(right, box.width);
    bottom = Math.min(bottom, box.height);
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
