//! Virtual staging, procedurally: furniture for the room type drawn as shaded blocks in the style's palette,
//! standing on the floor in the lower part of the photo, with a soft contact shadow. Seeded by the variation.

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

pub fn stage(source: &RgbImage, room_type: &RoomType, style: &Style, seed: u64) -> RgbImage {
    let (width, height) = (source.width() as f32, source.height() as f32);
    let mut random = Seeded(seed);
    let (main, accent) = palette(style);
    let mut image = source.clone();
    // the group stands on the floor: its base between 80 % and 92 % of the height, its size with the distance
    let floor = height * (0.80 + 0.12 * random.unit());
    let group_width = width * (0.38 + 0.18 * random.unit());
    let group_height = group_width * 0.45;
    let left = width * 0.08 + (width * 0.84 - group_width) * random.unit();
    let top = floor - group_height;
    shadow(&mut image, left + group_width / 2.0, floor, group_width * 0.6, group_height * 0.12);
    for (index, &(x, y, w, h)) in pieces(room_type).iter().enumerate() {
        let colour = if index == 0 { accent } else { main };
        let shade = 0.85 + 0.3 * random.unit();
        block(
            &mut image,
            left + x * group_width,
            top + y * group_height,
            w * group_width,
            h * group_height,
            colour,
            shade,
        );
    }
    image
}

/// A box lit from above: lighter on top, darker at the bottom.
fn block(image: &mut RgbImage, left: f32, top: f32, width: f32, height: f32, colour: [u8; 3], shade: f32) {
    let (image_width, image_height) = image.dimensions();
    let x0 = left.max(0.0) as u32;
    let y0 = top.max(0.0) as u32;
    let x1 = ((left + width).max(0.0) as u32).min(image_width);
    let y1 = ((top + height).max(0.0) as u32).min(image_height);
    for y in y0..y1 {
        let light = shade * (1.1 - 0.3 * (y - y0) as f32 / (y1 - y0).max(1) as f32);
        for x in x0..x1 {
            image.put_pixel(x, y, Rgb(colour.map(|c| (f32::from(c) * light).clamp(0.0, 255.0) as u8)));
        }
    }
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
