//! Virtual staging, procedurally: furniture for the room type in the style's palette and shapes, standing on the
//! floor found in the photo, sized by its distance, its tops receding toward the vanishing point, with contact
//! shadows. Seeded by the variation, so one variation id always gives the same room.

use image::{Rgb, RgbImage};
use vstage_api::{RoomType, Style};

/// The style's main and accent colours.
fn palette(style: &Style) -> ([u8; 3], [u8; 3]) {
    match style {
        Style::Scandinavian => ([226, 220, 206], [164, 196, 190]),
        Style::Industrial => ([92, 88, 84], [150, 96, 60]),
        Style::Midcentury | Style::MidCenturyModern => ([176, 104, 52], [46, 110, 104]),
        Style::Luxury => ([40, 44, 70], [196, 160, 84]),
        Style::Farmhouse => ([210, 196, 170], [120, 84, 56]),
        Style::Coastal => ([236, 236, 228], [70, 130, 180]),
        Style::Modern => ([60, 62, 66], [200, 200, 204]),
        _ => ([140, 128, 116], [90, 110, 140]),
    }
}

/// Pieces of furniture as boxes (left, top, width, height) in a unit square that stands on the floor line.
fn pieces(room_type: &RoomType) -> &'static [(f32, f32, f32, f32)] {
    match room_type {
        RoomType::Bed | RoomType::KidsRoom => &[(0.05, 0.0, 0.9, 0.45), (0.0, 0.45, 1.0, 0.55), (0.1, 0.35, 0.3, 0.15)],
        RoomType::Dining | RoomType::Kitchen => {
            &[(0.0, 0.35, 1.0, 0.12), (0.08, 0.47, 0.06, 0.53), (0.86, 0.47, 0.06, 0.53)]
        }
        RoomType::HomeOffice => {
            &[(0.0, 0.3, 0.75, 0.1), (0.05, 0.4, 0.05, 0.6), (0.65, 0.4, 0.05, 0.6), (0.78, 0.45, 0.22, 0.55)]
        }
        RoomType::Outdoor => &[(0.0, 0.5, 0.45, 0.5), (0.55, 0.5, 0.45, 0.5), (0.35, 0.7, 0.3, 0.3)],
        RoomType::Bathroom => &[(0.1, 0.4, 0.8, 0.6), (0.0, 0.3, 1.0, 0.12)],
        _ => &[(0.0, 0.0, 1.0, 0.55), (0.0, 0.45, 1.0, 0.55), (-0.05, 0.3, 0.12, 0.7), (0.93, 0.3, 0.12, 0.7)],
    }
}

/// A small deterministic generator (SplitMix64), so one variation id always gives the same room.
struct Seeded(u64);

impl Seeded {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// How a style shapes its furniture: corner rounding (a share of the piece's smaller side), an accent trim along the
/// top, a dark frame.
struct Look {
    rounding: f32,
    trim: bool,
    frame: bool,
}

impl Look {
    fn of(style: &Style) -> Self {
        match style {
            Style::Scandinavian | Style::Farmhouse | Style::Coastal => {
                Look { rounding: 0.18, trim: false, frame: false }
            }
            Style::Midcentury | Style::MidCenturyModern => Look { rounding: 0.3, trim: false, frame: false },
            Style::Luxury => Look { rounding: 0.08, trim: true, frame: false },
            Style::Industrial => Look { rounding: 0.0, trim: false, frame: true },
            _ => Look { rounding: 0.04, trim: false, frame: false },
        }
    }
}

/// The row where the wall meets the floor: the strongest change between the mean colours of the bands just above
/// and just below, between 35 % and 85 % of the height; 62 % when nothing stands out.
pub fn horizon(image: &RgbImage) -> f32 {
    let (width, height) = image.dimensions();
    let rows: Vec<[f32; 3]> = (0..height)
        .map(|y| {
            let mut sum = [0f32; 3];
            for x in (0..width).step_by(4) {
                (0..3).for_each(|c| sum[c] += f32::from(image.get_pixel(x, y).0[c]));
            }
            sum.map(|s| s / width.div_ceil(4) as f32)
        })
        .collect();
    let band = (height / 60).max(2) as usize;
    let (from, to) = ((height as f32 * 0.35) as usize, (height as f32 * 0.85) as usize);
    let mean = |range: std::ops::Range<usize>| -> [f32; 3] {
        let n = range.len() as f32;
        std::array::from_fn(|c| rows[range.clone()].iter().map(|r| r[c]).sum::<f32>() / n)
    };
    let mut best = (0f32, height as f32 * 0.62);
    for y in from.max(band)..to.min(height as usize - band) {
        let (above, below) = (mean(y - band..y), mean(y..y + band));
        let change = (0..3).map(|c| (above[c] - below[c]).abs()).sum::<f32>();
        if change > best.0 && change > 30.0 {
            best = (change, y as f32);
        }
    }
    best.1
}

/// Furniture for `room_type` in `style`, standing on the floor: nearer (lower) pieces are larger, tops recede
/// toward the vanishing point on the horizon, and contact shadows ground them. `seed` varies the arrangement.
pub fn stage(source: &RgbImage, room_type: &RoomType, style: &Style, seed: u64) -> RgbImage {
    let (width, height) = (source.width() as f32, source.height() as f32);
    let mut random = Seeded(seed);
    // a deprecated style is staged as the current one the service maps it to
    let style = &style.current();
    let (main, accent) = palette(style);
    let look = Look::of(style);
    let mut image = source.clone();
    let horizon = horizon(source);
    let floor_depth = (height - horizon).max(1.0);
    // the group's base on the floor; the nearer, the larger
    let base = horizon + floor_depth * (0.55 + 0.3 * random.unit());
    let nearness = (base - horizon) / floor_depth;
    let group_width = width * (0.26 + 0.32 * nearness) * (0.9 + 0.2 * random.unit());
    // never higher than the lower part of the wall
    let group_height = (group_width * 0.45).min(base - horizon * 0.62);
    let left = width * 0.06 + (width * 0.88 - group_width).max(0.0) * random.unit();
    let top = base - group_height;
    let vanishing_x = width / 2.0;
    shadow(&mut image, left + group_width / 2.0, base, group_width * 0.6, group_height * 0.12);
    for (index, &(x, y, w, h)) in pieces(room_type).iter().enumerate() {
        let colour = if index == 0 { accent } else { main };
        let shade = 0.85 + 0.3 * random.unit();
        let piece = Piece {
            left: left + x * group_width,
            top: top + y * group_height,
            width: w * group_width,
            height: h * group_height,
        };
        // a top face is seen only below eye level (the horizon)
        if piece.top > horizon {
            let depth = piece.height.min(group_height * 0.25) * 0.35 * (piece.top - horizon) / floor_depth;
            top_face(&mut image, &piece, depth, vanishing_x, colour, shade * 1.12);
        }
        block(&mut image, &piece, colour, shade, &look, accent);
    }
    image
}

/// A piece's front face, in image coordinates.
struct Piece {
    left: f32,
    top: f32,
    width: f32,
    height: f32,
}

/// The top of a piece, receding `depth` pixels toward the vanishing point.
fn top_face(image: &mut RgbImage, piece: &Piece, depth: f32, vanishing_x: f32, colour: [u8; 3], light: f32) {
    if depth < 1.0 {
        return;
    }
    let (image_width, image_height) = image.dimensions();
    let (near_left, near_right) = (piece.left, piece.left + piece.width);
    let pull = 0.15;
    let (far_left, far_right) =
        (near_left + (vanishing_x - near_left) * pull, near_right + (vanishing_x - near_right) * pull);
    let y0 = (piece.top - depth).max(0.0) as u32;
    let y1 = (piece.top.max(0.0) as u32).min(image_height);
    for y in y0..y1 {
        let t = (piece.top - y as f32) / depth; // 0 at the front edge, 1 at the back
        let from = (near_left + (far_left - near_left) * t).max(0.0) as u32;
        let to = ((near_right + (far_right - near_right) * t).max(0.0) as u32).min(image_width);
        for x in from..to {
            image.put_pixel(x, y, Rgb(colour.map(|c| (f32::from(c) * light).clamp(0.0, 255.0) as u8)));
        }
    }
}

/// A piece's front, lit from above (lighter on top, darker at the bottom), with the style's corners, trim and
/// frame, and a thin contact shadow on the floor along its base.
fn block(image: &mut RgbImage, piece: &Piece, colour: [u8; 3], shade: f32, look: &Look, accent: [u8; 3]) {
    let (image_width, image_height) = image.dimensions();
    let x0 = piece.left.max(0.0) as u32;
    let y0 = piece.top.max(0.0) as u32;
    let x1 = ((piece.left + piece.width).max(0.0) as u32).min(image_width);
    let y1 = ((piece.top + piece.height).max(0.0) as u32).min(image_height);
    let radius = piece.width.min(piece.height) * look.rounding;
    let frame = (piece.width.min(piece.height) * 0.04).max(1.0);
    let trim = (piece.height * 0.06).max(1.0);
    for y in y0..y1 {
        let light = shade * (1.1 - 0.3 * (y - y0) as f32 / (y1 - y0).max(1) as f32);
        for x in x0..x1 {
            let (fx, fy) = (x as f32 + 0.5 - piece.left, y as f32 + 0.5 - piece.top);
            if outside_rounded(fx, fy, piece.width, piece.height, radius) {
                continue;
            }
            let edge = fx.min(fy).min(piece.width - fx).min(piece.height - fy);
            let (base, light) = if look.frame && edge < frame {
                ([40, 40, 42], 1.0)
            } else if look.trim && fy < trim {
                (accent, 1.0)
            } else {
                (colour, light)
            };
            image.put_pixel(x, y, Rgb(base.map(|c| (f32::from(c) * light).clamp(0.0, 255.0) as u8)));
        }
    }
    // contact shadow: the floor just under the base darkens, fading over a few pixels
    let reach = (piece.height * 0.05).clamp(1.0, 12.0) as u32;
    for dy in 0..reach {
        let y = y1 + dy;
        if y >= image_height {
            break;
        }
        let darken = 0.55 + 0.45 * dy as f32 / reach as f32;
        for x in x0..x1 {
            let pixel = image.get_pixel_mut(x, y);
            pixel.0 = pixel.0.map(|c| (f32::from(c) * darken) as u8);
        }
    }
}

/// Whether a point of a `width` x `height` box (from its top-left corner) falls outside its rounded corners.
fn outside_rounded(x: f32, y: f32, width: f32, height: f32, radius: f32) -> bool {
    if radius < 1.0 {
        return false;
    }
    let cx = if x < radius {
        radius
    } else if x > width - radius {
        width - radius
    } else {
        return false;
    };
    let cy = if y < radius {
        radius
    } else if y > height - radius {
        height - radius
    } else {
        return false;
    };
    (x - cx).powi(2) + (y - cy).powi(2) > radius * radius
}

/// A soft dark ellipse on the floor where the furniture touches it.
fn shadow(image: &mut RgbImage, centre_x: f32, centre_y: f32, radius_x: f32, radius_y: f32) {
    let (width, height) = image.dimensions();
    let y0 = (centre_y - radius_y).max(0.0) as u32;
    let y1 = ((centre_y + radius_y) as u32).min(height);
    let x0 = (centre_x - radius_x).max(0.0) as u32;
    let x1 = ((centre_x + radius_x) as u32).min(width);
    for y in y0..y1 {
        for x in x0..x1 {
            let dx = (x as f32 - centre_x) / radius_x;
            let dy = (y as f32 - centre_y) / radius_y.max(1.0);
            let distance = dx * dx + dy * dy;
            if distance < 1.0 {
                let darken = 1.0 - 0.55 * (1.0 - distance);
                let pixel = image.get_pixel_mut(x, y);
                pixel.0 = pixel.0.map(|c| (f32::from(c) * darken) as u8);
            }
        }
    }
}
