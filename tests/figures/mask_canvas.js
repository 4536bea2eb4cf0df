// The reference for the mask editor's figures: the same brush written the usual way in JavaScript, on a canvas 2D
// context of the photo's full size (round-capped line segments), with a history of getImageData snapshots of each
// stroke's bounding box. `points` holds strokes of `strokeLength` points each, as the Rust side paints them. Returns
// each stroke's time divided by its segments, in milliseconds (a segment alone takes less than the timer can tell),
// and the bytes the history would hold.
const [width, height, brush, points, strokeLength] = arguments;
const canvas = document.createElement("canvas");
canvas.width = width;
canvas.height = height;
const context = canvas.getContext("2d");
context.lineCap = "round";
context.lineJoin = "round";
context.lineWidth = brush;
context.strokeStyle = "#ffffff";
const r = brush / 2;
const times = [];
let historyBytes = 0;
for (let first = 0; first + 1 < points.length / 2; first += strokeLength) {
  const last = Math.min(first + strokeLength, points.length / 2) - 1;
  let box = null;
  const start = performance.now();
  for (let i = first + 1; i <= last; i++) {
    const [x0, y0, x1, y1] = [points[2 * i - 2], points[2 * i - 1], points[2 * i], points[2 * i + 1]];
    context.beginPath();
    context.moveTo(x0, y0);
    context.lineTo(x1, y1);
    context.stroke();
    // reading one pixel makes the canvas draw now rather than at the next frame
    context.getImageData(x1 | 0, y1 | 0, 1, 1);
    // the snapshot a stroke's undo would need: its bounding box, 4 bytes a pixel
    const [left, top, right, bottom] = [Math.min(x0, x1) - r, Math.min(y0, y1) - r, Math.max(x0, x1) + r, Math.max(y0, y1) + r];
    box = box ? [Math.min(box[0], left), Math.min(box[1], top), Math.max(box[2], right), Math.max(box[3], bottom)] : [left, top, right, bottom];
  }
  times.push((performance.now() - start) / (last - first));
  const w = Math.min(width, box[2]) - Math.max(0, box[0]);
  const h = Math.min(height, box[3]) - Math.max(0, box[1]);
  historyBytes += Math.ceil(w) * Math.ceil(h) * 4;
}
return { times: Float64Array.from(times), historyBytes };
