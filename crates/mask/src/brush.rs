//! Brush rasterisation: a segment of a stroke is the set of pixels whose centres lie within the brush's radius of
//! the segment (a capsule), found row by row as one span, so a fast movement paints a continuous band with no gaps.

use crate::{Point, Rect};

/// The thinnest brush: half a pixel, so a dab always covers the pixel under it.
const MIN_RADIUS: f64 = 0.5;
/// A radius that changes along a segment (pen pressure) is painted as pieces of constant radius, one per pixel of
/// change, at most this many.
const MAX_PIECES: usize = 64;

/// Calls `span(y, x0, x1)` for every row of pixels the segment covers inside a `width` x `height` bitmap, columns
/// `x0..=x1`; returns the rectangle covered.
pub fn segment(
    from: Point,
    to: Point,
    from_radius: f64,
    to_radius: f64,
    width: u32,
    height: u32,
    mut span: impl FnMut(u32, u32, u32),
) -> Rect {
    let finite = [from.x, from.y, to.x, to.y, from_radius, to_radius].iter().all(|v| v.is_finite());
    if !finite {
        return Rect::EMPTY;
    }
    let (r0, r1) = (from_radius.max(MIN_RADIUS), to_radius.max(MIN_RADIUS));
    let pieces = ((r1 - r0).abs().ceil() as usize).clamp(1, MAX_PIECES);
    let at = |t: f64| Point::new(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
    let mut covered = Rect::EMPTY;
    for piece in 0..pieces {
        let (t0, t1) = (piece as f64 / pieces as f64, (piece + 1) as f64 / pieces as f64);
        let radius = r0 + (r1 - r0) * (t0 + t1) / 2.0;
        covered = covered.union(capsule(at(t0), at(t1), radius, width, height, &mut span));
    }
    covered
}

/// The pixels within `r` of the segment from `a` to `b`.
fn capsule(a: Point, b: Point, r: f64, width: u32, height: u32, span: &mut impl FnMut(u32, u32, u32)) -> Rect {
    // rows whose centre (y + 0.5) can be within r
    let top = (a.y.min(b.y) - r - 0.5).ceil().max(0.0);
    let bottom = (a.y.max(b.y) + r - 0.5).floor().min(f64::from(height) - 1.0);
    if top > bottom {
        return Rect::EMPTY;
    }
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length_squared = dx * dx + dy * dy;
    let length = length_squared.sqrt();
    let mut covered = Rect::EMPTY;
    for y in top as u32..=bottom as u32 {
        let cy = f64::from(y) + 0.5;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        // the two end discs
        for end in [a, b] {
            let off = cy - end.y;
            if off.abs() <= r {
                let half = (r * r - off * off).sqrt();
                lo = lo.min(end.x - half);
                hi = hi.max(end.x + half);
            }
        }
        // the band between them: 0 <= (p - a)·d <= |d|² and |(p - a) × d| <= r|d|
        if length_squared > 1e-12 {
            let along = (cy - a.y) * dy;
            let across = (cy - a.y) * dx;
            let band = interval(dx, -along, length_squared - along)
                .and_then(|first| intersect(first, interval(dy, across - r * length, across + r * length)?));
            if let Some((band_lo, band_hi)) = band {
                lo = lo.min(a.x + band_lo);
                hi = hi.max(a.x + band_hi);
            }
        }
        // pixels whose centre x + 0.5 lies in [lo, hi]
        let x0 = (lo - 0.5).ceil().max(0.0);
        let x1 = (hi - 0.5).floor().min(f64::from(width) - 1.0);
        if x0 <= x1 {
            span(y, x0 as u32, x1 as u32);
            covered = covered.union(Rect { x: x0 as u32, y, width: (x1 - x0) as u32 + 1, height: 1 });
        }
    }
    covered
}

/// The values of `t` with `low <= t * k <= high`, as an interval (unbounded when `k` is 0 and 0 is within the
/// limits), or `None` when there are none.
fn interval(k: f64, low: f64, high: f64) -> Option<(f64, f64)> {
    if k.abs() < 1e-12 {
        return (low <= 0.0 && 0.0 <= high).then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let (p, q) = (low / k, high / k);
    Some((p.min(q), p.max(q)))
}

fn intersect(a: (f64, f64), b: (f64, f64)) -> Option<(f64, f64)> {
    let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
    (lo <= hi).then_some((lo, hi))
}
