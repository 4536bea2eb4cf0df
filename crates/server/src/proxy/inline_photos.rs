//! Photos and masks given inline, as `data:image/…;base64,` addresses in a call's JSON (the contract's pattern takes
//! them; clients without hosting send photos so): decoded, checked and cleared of metadata as uploads are
//! (`storage::uploads::cleaned_photo`), and written again as the `data:` address of what is left, before the call
//! is sent or recorded. A homeowner's location in a photo's EXIF goes no further than this server's memory.

use axum::body::Bytes;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use vstage_api::Config;

use super::call::Call;
use crate::error::ServerError;
use crate::storage::uploads::cleaned_photo;

const INLINE: &str = "data:image/";

/// Clears every photo and mask of `call` given inline; what is not an image this server reads is refused.
pub async fn clear(call: &mut Call) -> Result<(), ServerError> {
    for address in addresses(call) {
        if address.starts_with(INLINE) {
            let given = std::mem::take(address);
            *address = tokio::task::spawn_blocking(move || cleared(&given))
                .await
                .map_err(|e| ServerError::Internal(format!("reading an inline photo stopped: {e}")))??;
        }
    }
    Ok(())
}

/// Every photo and mask address of `call`.
fn addresses(call: &mut Call) -> Vec<&mut String> {
    let mut addresses = Vec::new();
    match call {
        Call::CreateRender(body) => {
            addresses.push(&mut body.image_url);
            addresses.extend(body.image_urls.iter_mut());
            addresses.extend(body.configs.configs_mut().into_iter().filter_map(Config::mask_url_mut));
        }
        Call::CreateRenders(bulk) => {
            for render in &mut bulk.renders {
                addresses.push(&mut render.image_url);
                addresses.extend(render.config.mask_url_mut());
            }
        }
        Call::AddVariations { body, .. } => addresses.extend(body.config.mask_url_mut()),
        Call::AddVariationsInBulk(bulk) => {
            addresses.extend(bulk.renders.iter_mut().filter_map(|render| render.config.mask_url_mut()));
        }
        Call::Analyze(body) => addresses.push(&mut body.image_url),
        Call::CheckViews(body) => addresses.extend(body.image_urls.iter_mut()),
        Call::V1Create { arguments, .. } => {
            addresses.extend(arguments.image_url.as_mut());
            addresses.extend(arguments.declutter_mask_url.as_mut());
        }
        _ => {}
    }
    addresses
}

/// `given` (a `data:image/…;base64,` address) with only what draws its image, as the same kind of address.
fn cleared(given: &str) -> Result<String, ServerError> {
    let data = given.split_once(";base64,").map(|(_, data)| data).ok_or_else(|| {
        ServerError::BadRequest("An inline photo is not base64: send it as data:image/<type>;base64,<data>.".into())
    })?;
    let bytes = STANDARD.decode(data).map_err(|e| {
        ServerError::BadRequest(format!("An inline photo's base64 is damaged ({e}); encode the photo again."))
    })?;
    let (cleaned, format, _, _) = cleaned_photo(Bytes::from(bytes))?;
    Ok(format!("data:{};base64,{}", format.to_mime_type(), STANDARD.encode(&cleaned)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::exiftool::assert_drawing_only;
    use crate::testing::phone::phone_jpeg;

    #[test]
    fn an_inline_photo_keeps_only_what_draws_it() {
        let given = format!("data:image/jpeg;base64,{}", STANDARD.encode(phone_jpeg()));
        let kept = cleared(&given).unwrap();
        let data = kept.strip_prefix("data:image/jpeg;base64,").expect("a JPEG's data address");
        let bytes = STANDARD.decode(data).unwrap();
        assert_drawing_only(&bytes, "an inline photo");
        assert!(kept.len() < given.len());
    }

    #[test]
    fn what_is_not_a_photo_or_not_base64_is_refused_with_what_to_do() {
        let refused = |given: &str| cleared(given).expect_err(given).to_string();
        assert!(refused("data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=").contains("upload a JPEG, PNG or WebP"));
        assert!(refused("data:image/png;base64,@@").contains("encode the photo again"));
        assert!(refused("data:image/png,abc").contains("data:image/<type>;base64"));
    }
}
