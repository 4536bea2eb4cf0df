//! The sample scenes, drawn by code, so the sandbox has photos with no internet and the imaging's tests a ground
//! truth: each furnished room comes with the same room empty, the house with where its sky and windows are. There
//! is a dim room to try enhancement on and a house in daylight to try dusk on.

use image::{GrayImage, Luma, Rgb, RgbImage};
use vstage_api::{RoomType, Style};

const WIDTH: u32 = 960;
const HEIGHT: u32 = 640;

/// A sample as drawn, with the same room before it was furnished (the ground truth the imaging tests use).
pub struct Scene {
    pub name: &'static str,
    pub description: &'static str,
    pub photo: RgbImage,
    /// For furnished rooms: the room without its furniture.
    pub empty: Option<RgbImage>,
    /// For exteriors: where the sky is (white).
    pub sky: Option<GrayImage>,
    /// For exteriors: the window panes (white).
    pub windows: Option<GrayImage>,
}

/// The sample scenes, drawn by code.
pub fn scenes() -> Vec<Scene> {
    let living = room([226, 218, 204], [150, 110, 74]);
    let bedroom = room([205, 214, 222], [170, 140, 110]);
    let scene = |name, description, photo, empty| Scene { name, description, photo, empty, sky: None, windows: None };
    let (house, sky, windows) = exterior();
    let dim = dim_room();
    vec![
        scene("living-empty.jpg", "An empty living room", living.clone(), None),
        scene(
            "living-furnished.jpg",
            "A furnished living room",
            furnish(&living, &RoomType::Living, &Style::Farmhouse),
            Some(living),
        ),
        scene(
            "bedroom-furnished.jpg",
            "A furnished bedroom",
            furnish(&bedroom, &RoomType::Bed, &Style::Scandinavian),
            Some(bedroom),
        ),
        Scene {
            sky: Some(sky),
            windows: Some(windows),
            ..scene("exterior-day.jpg", "A house in daylight", house, None)
        },
        scene("living-dim.jpg", "A dim living room, to try enhancement on", dim.furnished, Some(dim.empty)),
    ]
}

/// The empty living room of the samples, as drawn (the room the style examples are staged in).
pub fn empty_living_room() -> RgbImage {
    room([226, 218, 204], [150, 110, 74])
}

/// The house in daylight of the samples, as drawn (the house the sky examples are turned to dusk).
pub fn house_in_daylight() -> RgbImage {
    exterior().0
}

/// A furnished room at dusk with the lights off, and the same room empty.
struct DimRoom {
    furnished: RgbImage,
    empty: RgbImage,
}

/// A room under a grey evening light: under a third of the daylight, a cool cast, the highlights flat. Furnished
/// before it is darkened, so that the furniture is in the same light as the room.
fn dim_room() -> DimRoom {
    let room = room([214, 204, 188], [132, 98, 70]);
    let furnished = crate::stage(&room, &RoomType::Living, &Style::Modern, 11);
    let dim = |image: &RgbImage| {
        let mut image = image.clone();
        for pixel in image.pixels_mut() {
            let [r, g, b] = pixel.0.map(|c| f32::from(c) * 0.3);
            pixel.0 = [r * 0.92 + 6.0, g * 0.97 + 8.0, b * 1.05 + 12.0].map(|c| c.min(255.0) as u8);
        }
        image
    };
    DimRoom { furnished: dim(&furnished), empty: dim(&room) }
}

/// A sample photo as drawn (for the benchmarks and the sandbox's tests), by its name, e.g. `living-furnished.jpg`.
pub fn drawn(name: &str) -> Option<RgbImage> {
    scenes().into_iter().find(|scene| scene.name == name).map(|scene| scene.photo)
}

/// A room seen from its doorway: a wall with a window above a floor of boards that recede to the back wall.
fn room(wall: [u8; 3], floor: [u8; 3]) -> RgbImage {
    let horizon = HEIGHT * 62 / 100;
    RgbImage::from_fn(WIDTH, HEIGHT, |x, y| {
        if y < horizon {
            let in_window = (WIDTH * 55 / 100..WIDTH * 80 / 100).contains(&x)
                && (HEIGHT * 15 / 100..HEIGHT * 48 / 100).contains(&y);
            if in_window {
                return Rgb([236, 242, 250]);
            }
            let light = 1.0 - 0.12 * (y as f32 / horizon as f32);
            Rgb(wall.map(|c| (f32::from(c) * light) as u8))
        } else if y < horizon + 6 {
            Rgb([240, 240, 236])
        } else {
            // boards converge towards the centre of the back wall
            let depth = (y - horizon) as f32 / (HEIGHT - horizon) as f32;
            let spread = (x as f32 - WIDTH as f32 / 2.0) / (0.35 + depth);
            let board = (spread / 40.0).floor() as i32;
            let grain = if board % 2 == 0 { 1.0 } else { 0.9 };
            let light = (0.8 + 0.25 * depth) * grain;
            Rgb(floor.map(|c| (f32::from(c) * light).min(255.0) as u8))
        }
    })
}

fn furnish(room: &RgbImage, room_type: &RoomType, style: &Style) -> RgbImage {
    crate::stage(room, room_type, style, 7)
}

/// A house under a blue sky on a lawn, where the sky is, and where its windows are.
fn exterior() -> (RgbImage, GrayImage, GrayImage) {
    let ground = HEIGHT * 70 / 100;
    let mut image = RgbImage::from_fn(WIDTH, HEIGHT, |_, y| {
        if y < ground {
            let t = y as f32 / ground as f32;
            Rgb([(120.0 + 80.0 * t) as u8, (170.0 + 50.0 * t) as u8, (230.0 + 15.0 * t) as u8])
        } else {
            Rgb([86, 140, 64])
        }
    });
    let (left, right, wall_top) = (WIDTH * 25 / 100, WIDTH * 75 / 100, HEIGHT * 38 / 100);
    for y in wall_top..ground {
        for x in left..right {
            image.put_pixel(x, y, Rgb([214, 200, 176]));
        }
    }
    // the roof: a triangle over the walls
    let peak = HEIGHT * 18 / 100;
    for y in peak..wall_top {
        let half = (right - left) as f32 / 2.0 * (y - peak) as f32 / (wall_top - peak) as f32 + 20.0;
        let centre = (left + right) as f32 / 2.0;
        for x in (centre - half).max(0.0) as u32..((centre + half) as u32).min(WIDTH) {
            image.put_pixel(x, y, Rgb([120, 60, 50]));
        }
    }
    let mut windows = GrayImage::new(WIDTH, HEIGHT);
    for (x0, y0) in [(left + 40, wall_top + 40), (right - 140, wall_top + 40)] {
        for y in y0..y0 + 90 {
            for x in x0..x0 + 100 {
                image.put_pixel(x, y, Rgb([60, 80, 100]));
                windows.put_pixel(x, y, Luma([255]));
            }
        }
    }
    // the sky is what is left of the gradient above the lawn
    let sky = GrayImage::from_fn(WIDTH, HEIGHT, |x, y| {
        let t = y as f32 / ground as f32;
        let gradient = [(120.0 + 80.0 * t) as u8, (170.0 + 50.0 * t) as u8, (230.0 + 15.0 * t) as u8];
        Luma([if y < ground && image.get_pixel(x, y).0 == gradient { 255 } else { 0 }])
    });
    (image, sky, windows)
}
