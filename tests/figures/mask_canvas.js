// The reference for the mask editor's figures: the same brush written the usual way in JavaScript, on a canvas 2D
// context of the photo's full size (round-capped line segments), with a history of getImageData snapshots of each
// stroke's bounding box. Returns the time of each segment in milliseconds, and the bytes the history would hold.
const [width, height, brush, points, strokeLength] = arguments;
const canvas = document.createElement("canvas");
canvas.width = width;
canvas.height = height;
const context = canvas.getContext("2d");
context.lineCap = "round";
context.lineJoin = "round";
context.lineWidth = brush;
context.strokeStyle = "#ffffff";
const segments = points.length / 2 - 1;
const times = new Float64Array(segments);
let historyBytes = 0;
let box = null;
for (let i = 1; i <= segments; i++) {
  const [x0, y0, x1, y1] = [points[2 * i - 2], points[2 * i - 1], points[2 * i], points[2 * i + 1]];
  const start = performance.now();
  context.beginPath();
  context.moveTo(x0, y0);
  context.lineTo(x1, y1);
  context.stroke();
  // reading one pixel makes the canvas draw now rather than at the next frame
  context.getImageData(x1 | 0, y1 | 0, 1, 1);
  times[i - 1] = performance.now() - start;
  // the snapshot a stroke's undo would need: its bounding box, 4 bytes a pixel
  const r = brush / 2;
  const [left, top, right, bottom] = [Math.min(x0, x1) - r, Math.min(y0, y1) - r, Math.max(x0, x1) + r, Math.max(y0, y1) + r];
  box = box ? [Math.min(box[0], left), Math.min(box[1], top), Math.max(box[2], right), Math.max(box[3], bottom)] : [left, top, right, bottom];
  if (i % strokeLength === 0 || i === segments) {
    const w = Math.min(width, box[2]) - Math.max(0, box[0]);
    const h = Math.min(height, box[3]) - Math.max(0, box[1]);
    historyBytes += Math.ceil(w) * Math.ceil(h) * 4;
    box = null;
  }
}
return { times, historyBytes };
