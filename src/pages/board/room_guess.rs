//! A best guess of a waiting photo's room from its name (`Master bedroom.jpg`, `cuisine-2.jpg`), in the studio's
//! four languages, so that a listing's bedroom is not staged as a living room by default. The service's furniture
//! analysis says whether a room is furnished, not which room it is; the name is what an agent's files do say.

use vstage_api::RoomType;

/// Words that name each room, lower case and without accents, in English, French, German and Spanish. Checked in
/// this order, so that "kids bedroom" is a kids' room and "dining kitchen" a dining room.
const ROOM_WORDS: [(RoomType, &[&str]); 8] = [
    (RoomType::KidsRoom, &["kid", "child", "nursery", "enfant", "kinder", "infantil", "ninos"]),
    (RoomType::HomeOffice, &["office", "study", "bureau", "buro", "arbeitszimmer", "oficina", "despacho"]),
    (RoomType::Dining, &["dining", "manger", "esszimmer", "comedor"]),
    (RoomType::Bed, &["bed", "chambre", "schlafzimmer", "dormitorio", "habitacion"]),
    (RoomType::Bathroom, &["bath", "shower", "salle-de-bain", "salle-d-eau", "badezimmer", "bano", "aseo"]),
    (RoomType::Kitchen, &["kitchen", "cuisine", "kuche", "kueche", "cocina"]),
    (
        RoomType::Outdoor,
        &["outdoor", "exterior", "garden", "patio", "terrace", "jardin", "terrasse", "garten", "balcon"],
    ),
    (RoomType::Living, &["living", "lounge", "family", "salon", "sejour", "wohnzimmer", "sala"]),
];

/// The room a photo's name (file name or address's last part) suggests, if any.
pub fn room_from_name(name: &str) -> Option<RoomType> {
    let plain = plain_words(name);
    ROOM_WORDS.iter().find(|(_, words)| words.iter().any(|word| plain.contains(word))).map(|(room, _)| room.clone())
}

/// The name in lower case, accents dropped and every separator a `-`: `Salle de Bain_2.JPG` → `salle-de-bain-2-jpg`.
fn plain_words(name: &str) -> String {
    name.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'â' | 'á' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'î' | 'ï' | 'í' => 'i',
            'ô' | 'ó' | 'ö' => 'o',
            'û' | 'ù' | 'ú' | 'ü' => 'u',
            'ñ' => 'n',
            'ç' => 'c',
            c if c.is_alphanumeric() => c,
            _ => '-',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn a_room_is_guessed_from_the_photo_s_name_in_four_languages() {
        let guesses = [
            ("Master bedroom.jpg", Some(RoomType::Bed)),
            ("bedroom-furnished.jpg", Some(RoomType::Bed)),
            ("kids_bedroom_2.jpg", Some(RoomType::KidsRoom)),
            ("exterior-day.jpg", Some(RoomType::Outdoor)),
            ("Salle de Bain.JPG", Some(RoomType::Bathroom)),
            ("cuisine-ouverte.jpg", Some(RoomType::Kitchen)),
            ("Küche.png", Some(RoomType::Kitchen)),
            ("Wohnzimmer 1.jpg", Some(RoomType::Living)),
            ("baño principal.jpg", Some(RoomType::Bathroom)),
            ("Dining kitchen.jpg", Some(RoomType::Dining)),
            ("living-empty.jpg", Some(RoomType::Living)),
            ("IMG_0042.jpg", None),
        ];
        for (name, room) in guesses {
            assert_eq!(room_from_name(name), room, "{name}");
        }
    }
}
