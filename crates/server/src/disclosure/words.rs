//! The disclosure's words in the studio's four languages: the statements, what was changed, the description and
//! remarks sentences, the photo's label and the public page's text. The language is the listing's, not the
//! reader's browser's: a listing page says one thing in one language.

/// Every sentence of a disclosure in one language.
#[derive(Debug)]
pub struct Words {
    pub lang: &'static str,
    /// The language's own name, for the page's language links.
    pub name: &'static str,
    /// Short statements, also the label drawn into a photo.
    pub virtually_staged: &'static str,
    pub digitally_altered: &'static str,
    pub digitally_enhanced: &'static str,
    /// What was changed, one line each; `{style}` is the staging style.
    pub furniture_added: &'static str,
    pub furniture_removed: &'static str,
    pub sky_to_dusk: &'static str,
    pub enhanced: &'static str,
    /// The statement's first half under a law asking that it say the image was altered (AB 723): the short
    /// statement made a sentence that says so.
    pub staged_altered: &'static str,
    pub image_altered: &'static str,
    pub image_enhanced: &'static str,
    /// Its second half, as §10140.8(a)(1) asks: "language indicating that the unaltered images can be accessed on
    /// the linked internet website, URL, or QR code"; with a QR code, or a link alone.
    pub unaltered_at_link_or_qr: &'static str,
    pub unaltered_at_link: &'static str,
    /// The words of a link to the originals page.
    pub unaltered_original: &'static str,
    pub original_before: &'static str,
    /// The public remarks' first sentence (Stellar MLS's own words in English).
    pub remarks_staged: &'static str,
    pub remarks_altered: &'static str,
    // The public page.
    pub page_title: &'static str,
    pub heading_altered: &'static str,
    pub heading_enhanced: &'static str,
    pub altered_photo: &'static str,
    pub original_photo: &'static str,
    pub original_explained: &'static str,
    pub what_changed: &'static str,
    pub chosen_on: &'static str,
    pub open_full_size: &'static str,
    pub other_languages: &'static str,
    /// The page's reading of the altered photo's content credentials (C2PA): `{signer}` is who signed them,
    /// `{agent}` what made the photo.
    pub credentials: &'static str,
    pub credentials_trusted: &'static str,
    pub credentials_unknown_signer: &'static str,
    pub credentials_broken: &'static str,
    pub credentials_absent: &'static str,
    /// Said by a server built without content credentials (`credentials::IN_THIS_BUILD`).
    pub credentials_not_in_this_build: &'static str,
    pub credentials_name_this_original: &'static str,
    pub credentials_name_another_original: &'static str,
}

pub const ENGLISH: Words = Words {
    lang: "en",
    name: "English",
    virtually_staged: "Virtually staged",
    digitally_altered: "Digitally altered",
    digitally_enhanced: "Digitally enhanced",
    furniture_added: "Furniture and decor added digitally, in the {style} style",
    furniture_removed: "Furniture removed digitally",
    sky_to_dusk: "Daytime sky changed to dusk",
    enhanced: "Light, colour and exposure enhanced",
    staged_altered: "Virtually staged: this image was digitally altered.",
    image_altered: "This image was digitally altered.",
    image_enhanced: "This image was digitally enhanced.",
    unaltered_at_link_or_qr: "The unaltered original can be accessed at the linked page or QR code",
    unaltered_at_link: "The unaltered original can be accessed at the linked page",
    unaltered_original: "Unaltered original photo",
    original_before: "The original photo is shown right before this one.",
    remarks_staged: "One or more photo(s) was virtually staged.",
    remarks_altered: "One or more photo(s) was digitally altered.",
    page_title: "Listing photo and its original",
    heading_altered: "This listing photo was digitally altered",
    heading_enhanced: "This listing photo was digitally enhanced",
    altered_photo: "The photo as shown in the listing",
    original_photo: "The original, unaltered photo, as taken",
    original_explained: "The original is the photo before any of the changes below.",
    what_changed: "What was changed",
    chosen_on: "Chosen for the listing on",
    open_full_size: "Open full size",
    other_languages: "Other languages",
    credentials: "Content credentials (C2PA)",
    credentials_trusted: "The photo's content credentials verify: signed by {signer}, they say it was altered with \
                          trained algorithmic media by {agent}.",
    credentials_unknown_signer: "The photo's content credentials are intact, but signed by {signer}, whom this site \
                                 does not know; they say it was altered by {agent}.",
    credentials_broken: "The photo's content credentials do not verify: it was changed after they were signed.",
    credentials_absent: "The photo carries no content credentials.",
    credentials_not_in_this_build: "This site's server is built without content credentials: it neither signs nor \
                                    reads them, and the photo carries none.",
    credentials_name_this_original: "They name the original shown here as the photo it was made from.",
    credentials_name_another_original: "They name another photo than the original shown here.",
};

pub const GERMAN: Words = Words {
    lang: "de",
    name: "Deutsch",
    virtually_staged: "Virtuell eingerichtet",
    digitally_altered: "Digital verändert",
    digitally_enhanced: "Digital optimiert",
    furniture_added: "Möbel und Dekoration digital hinzugefügt, im Stil {style}",
    furniture_removed: "Möbel digital entfernt",
    sky_to_dusk: "Taghimmel in Abendstimmung geändert",
    enhanced: "Licht, Farbe und Belichtung optimiert",
    staged_altered: "Virtuell eingerichtet: Dieses Bild wurde digital verändert.",
    image_altered: "Dieses Bild wurde digital verändert.",
    image_enhanced: "Dieses Bild wurde digital optimiert.",
    unaltered_at_link_or_qr: "Das unveränderte Original ist über die verlinkte Seite oder den QR-Code abrufbar",
    unaltered_at_link: "Das unveränderte Original ist über die verlinkte Seite abrufbar",
    unaltered_original: "Unverändertes Originalfoto",
    original_before: "Das Originalfoto steht direkt vor diesem.",
    remarks_staged: "Ein oder mehrere Fotos wurden virtuell eingerichtet.",
    remarks_altered: "Ein oder mehrere Fotos wurden digital verändert.",
    page_title: "Inseratsfoto und Original",
    heading_altered: "Dieses Inseratsfoto wurde digital verändert",
    heading_enhanced: "Dieses Inseratsfoto wurde digital optimiert",
    altered_photo: "Das Foto, wie es im Inserat erscheint",
    original_photo: "Das unveränderte Originalfoto, wie aufgenommen",
    original_explained: "Das Original ist das Foto vor allen unten genannten Änderungen.",
    what_changed: "Was geändert wurde",
    chosen_on: "Für das Inserat gewählt am",
    open_full_size: "In voller Größe öffnen",
    other_languages: "Andere Sprachen",
    credentials: "Inhaltsnachweise (C2PA)",
    credentials_trusted: "Die Inhaltsnachweise des Fotos sind gültig: signiert von {signer}, besagen sie, dass es \
                          von {agent} mit trainierten Algorithmen verändert wurde.",
    credentials_unknown_signer: "Die Inhaltsnachweise des Fotos sind unverändert, aber von {signer} signiert, den \
                                 diese Website nicht kennt; sie besagen, dass es von {agent} verändert wurde.",
    credentials_broken: "Die Inhaltsnachweise des Fotos sind ungültig: Es wurde nach dem Signieren verändert.",
    credentials_absent: "Das Foto trägt keine Inhaltsnachweise.",
    credentials_not_in_this_build: "Der Server dieser Seite ist ohne Inhaltsnachweise gebaut: Er signiert und liest \
                                    keine, und das Foto trägt keine.",
    credentials_name_this_original: "Sie nennen das hier gezeigte Original als das Foto, aus dem es entstand.",
    credentials_name_another_original: "Sie nennen ein anderes Foto als das hier gezeigte Original.",
};

pub const SPANISH: Words = Words {
    lang: "es",
    name: "Español",
    virtually_staged: "Amueblada virtualmente",
    digitally_altered: "Modificada digitalmente",
    digitally_enhanced: "Mejorada digitalmente",
    furniture_added: "Muebles y decoración añadidos digitalmente, en estilo {style}",
    furniture_removed: "Muebles retirados digitalmente",
    sky_to_dusk: "Cielo diurno cambiado a atardecer",
    enhanced: "Luz, color y exposición mejorados",
    staged_altered: "Amueblada virtualmente: esta imagen fue modificada digitalmente.",
    image_altered: "Esta imagen fue modificada digitalmente.",
    image_enhanced: "Esta imagen fue mejorada digitalmente.",
    unaltered_at_link_or_qr: "El original sin modificar puede consultarse en la página enlazada o con el código QR",
    unaltered_at_link: "El original sin modificar puede consultarse en la página enlazada",
    unaltered_original: "Foto original sin modificar",
    original_before: "La foto original aparece justo antes de esta.",
    remarks_staged: "Una o más fotos fueron amuebladas virtualmente.",
    remarks_altered: "Una o más fotos fueron modificadas digitalmente.",
    page_title: "Foto del anuncio y su original",
    heading_altered: "Esta foto del anuncio fue modificada digitalmente",
    heading_enhanced: "Esta foto del anuncio fue mejorada digitalmente",
    altered_photo: "La foto tal como aparece en el anuncio",
    original_photo: "La foto original sin modificar, tal como se tomó",
    original_explained: "La original es la foto antes de todos los cambios indicados abajo.",
    what_changed: "Qué se cambió",
    chosen_on: "Elegida para el anuncio el",
    open_full_size: "Abrir a tamaño completo",
    other_languages: "Otros idiomas",
    credentials: "Credenciales de contenido (C2PA)",
    credentials_trusted: "Las credenciales de contenido de la foto son válidas: firmadas por {signer}, indican que \
                          {agent} la alteró con medios algorítmicos entrenados.",
    credentials_unknown_signer: "Las credenciales de contenido de la foto están intactas, pero las firmó {signer}, \
                                 a quien este sitio no conoce; indican que {agent} la alteró.",
    credentials_broken: "Las credenciales de contenido de la foto no son válidas: se modificó después de firmarlas.",
    credentials_absent: "La foto no lleva credenciales de contenido.",
    credentials_not_in_this_build: "El servidor de este sitio está compilado sin credenciales de contenido: no las \
                                    firma ni las lee, y la foto no lleva ninguna.",
    credentials_name_this_original: "Indican que la original mostrada aquí es la foto de la que se hizo.",
    credentials_name_another_original: "Indican otra foto distinta de la original mostrada aquí.",
};

pub const FRENCH: Words = Words {
    lang: "fr",
    name: "Français",
    virtually_staged: "Meublée virtuellement",
    digitally_altered: "Retouchée numériquement",
    digitally_enhanced: "Améliorée numériquement",
    furniture_added: "Meubles et décoration ajoutés numériquement, dans le style {style}",
    furniture_removed: "Meubles retirés numériquement",
    sky_to_dusk: "Ciel de jour changé en crépuscule",
    enhanced: "Lumière, couleurs et exposition améliorées",
    staged_altered: "Meublée virtuellement\u{a0}: cette image a été retouchée numériquement.",
    image_altered: "Cette image a été retouchée numériquement.",
    image_enhanced: "Cette image a été améliorée numériquement.",
    unaltered_at_link_or_qr: "L’original non retouché est accessible sur la page liée ou par le code QR",
    unaltered_at_link: "L’original non retouché est accessible sur la page liée",
    unaltered_original: "Photo d’origine non retouchée",
    original_before: "La photo d’origine est présentée juste avant celle-ci.",
    remarks_staged: "Une ou plusieurs photos ont été meublées virtuellement.",
    remarks_altered: "Une ou plusieurs photos ont été retouchées numériquement.",
    page_title: "Photo de l’annonce et son original",
    heading_altered: "Cette photo de l’annonce a été retouchée numériquement",
    heading_enhanced: "Cette photo de l’annonce a été améliorée numériquement",
    altered_photo: "La photo telle qu’elle paraît dans l’annonce",
    original_photo: "La photo d’origine non retouchée, telle que prise",
    original_explained: "L’original est la photo avant toutes les modifications ci-dessous.",
    what_changed: "Ce qui a été modifié",
    chosen_on: "Choisie pour l’annonce le",
    open_full_size: "Ouvrir en taille réelle",
    other_languages: "Autres langues",
    credentials: "Certificats de contenu (C2PA)",
    credentials_trusted: "Les certificats de contenu de la photo sont valides : signés par {signer}, ils indiquent \
                          qu'elle a été modifiée par {agent} à l'aide d'algorithmes entraînés.",
    credentials_unknown_signer: "Les certificats de contenu de la photo sont intacts, mais signés par {signer}, que \
                                 ce site ne connaît pas ; ils indiquent qu'elle a été modifiée par {agent}.",
    credentials_broken: "Les certificats de contenu de la photo ne sont pas valides : elle a été modifiée après \
                         leur signature.",
    credentials_absent: "La photo ne porte aucun certificat de contenu.",
    credentials_not_in_this_build: "Le serveur de ce site est compilé sans certificats de contenu : il n'en signe \
                                    ni n'en lit aucun, et la photo n'en porte pas.",
    credentials_name_this_original: "Ils désignent l'original montré ici comme la photo dont elle est issue.",
    credentials_name_another_original: "Ils désignent une autre photo que l'original montré ici.",
};

pub const LANGUAGES: [&Words; 4] = [&ENGLISH, &GERMAN, &SPANISH, &FRENCH];

/// The words of `lang` (`de`, `de-AT`, `FR`); English for any other.
pub fn words(lang: &str) -> &'static Words {
    let primary = lang.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
    LANGUAGES.into_iter().find(|words| words.lang == primary).unwrap_or(&ENGLISH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_is_found_by_its_primary_tag() {
        assert_eq!(words("de-AT").lang, "de");
        assert_eq!(words("FR").lang, "fr");
        assert_eq!(words("pt-BR").lang, "en");
        assert_eq!(words("").lang, "en");
    }

    #[test]
    fn every_language_names_the_style_once() {
        for words in LANGUAGES {
            assert_eq!(words.furniture_added.matches("{style}").count(), 1, "{}", words.lang);
        }
    }
}
