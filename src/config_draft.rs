//! The configuration form's model: what a person has chosen for one configuration, turned into the contract's
//! `Config` and, for a photo, into the render to create; and the arithmetic that keeps a render's variations at 20
//! or fewer while they type.

use leptos_i18n::td_string;
use vstage_api::{
    AddFurniture, Config, ConfigEntry, CreateRender, DayToDuskConfig, EnhancementConfig, MAX_VARIATIONS_PER_RENDER,
    OutputResolution, RemovalMode, RemovalOnlyConfig, RemoveFurniture, RenderConfigs, RoomType, SkyStyle,
    StagingConfig, Style, ValidationError,
};

use crate::locale::Locale;

/// The four kinds of processing the form offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Staging,
    Declutter,
    DayToDusk,
    Enhancement,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Staging, Kind::Declutter, Kind::DayToDusk, Kind::Enhancement];

    pub fn label(self, locale: Locale) -> &'static str {
        match self {
            Kind::Staging => td_string!(locale, forms.kind_staging),
            Kind::Declutter => td_string!(locale, forms.kind_declutter),
            Kind::DayToDusk => td_string!(locale, forms.kind_day_to_dusk),
            Kind::Enhancement => td_string!(locale, forms.kind_enhancement),
        }
    }

    pub fn explained(self, locale: Locale) -> &'static str {
        match self {
            Kind::Staging => td_string!(locale, forms.kind_staging_explained),
            Kind::Declutter => td_string!(locale, forms.kind_declutter_explained),
            Kind::DayToDusk => td_string!(locale, forms.kind_day_to_dusk_explained),
            Kind::Enhancement => td_string!(locale, forms.kind_enhancement_explained),
        }
    }
}

/// One configuration as the form holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigDraft {
    pub kind: Kind,
    pub room_type: RoomType,
    pub style: Style,
    pub removal: RemovalMode,
    pub watermark: bool,
    pub resolution: OutputResolution,
    pub sky: SkyStyle,
    pub count: u64,
    /// A hand-made mask replacing the automatic one.
    pub mask_url: Option<String>,
    /// Stage on this removal variation (adding variations only).
    pub base_variation_id: Option<String>,
}

impl Default for ConfigDraft {
    fn default() -> Self {
        ConfigDraft {
            kind: Kind::Staging,
            room_type: RoomType::Living,
            style: Style::Modern,
            removal: RemovalMode::Off,
            watermark: false,
            resolution: OutputResolution::Default,
            sky: SkyStyle::Dusk,
            count: 1,
            mask_url: None,
            base_variation_id: None,
        }
    }
}

impl ConfigDraft {
    /// Staging on an existing removal variation.
    pub fn staging_on(base_variation_id: &str) -> Self {
        ConfigDraft { base_variation_id: Some(base_variation_id.to_string()), ..ConfigDraft::default() }
    }

    /// Whether this configuration removes furniture, so a custom mask applies to it.
    pub fn removes_furniture(&self) -> bool {
        match self.kind {
            Kind::Declutter => true,
            Kind::Staging => self.base_variation_id.is_none() && self.removal != RemovalMode::Off,
            Kind::DayToDusk | Kind::Enhancement => false,
        }
    }

    /// The contract's configuration for these choices.
    pub fn to_config(&self) -> Config {
        let resolution = Some(self.resolution.clone()).filter(|r| *r != OutputResolution::Default);
        let watermark = self.watermark.then_some(true);
        match self.kind {
            Kind::Staging => Config::Staging(StagingConfig {
                output_resolution: resolution,
                add_virtually_staged_watermark: watermark,
                add_furniture: AddFurniture {
                    style: self.style.clone(),
                    room_type: self.room_type.clone(),
                    base_variation_id: self.base_variation_id.clone(),
                },
                remove_furniture: (self.base_variation_id.is_none() && self.removal != RemovalMode::Off)
                    .then(|| RemoveFurniture { mode: self.removal.clone(), mask_url: self.mask_url.clone() }),
            }),
            Kind::Declutter => Config::RemovalOnly(RemovalOnlyConfig {
                output_resolution: resolution,
                add_virtually_staged_watermark: watermark,
                remove_furniture: RemoveFurniture { mode: RemovalMode::On, mask_url: self.mask_url.clone() },
            }),
            Kind::DayToDusk => {
                Config::DayToDusk(DayToDuskConfig { sky_style: self.sky.clone(), output_resolution: resolution })
            }
            Kind::Enhancement => Config::Enhancement(EnhancementConfig { output_resolution: resolution }),
        }
    }

    /// Variations one count of this configuration makes: two when furniture is removed first.
    pub fn weight(&self) -> u64 {
        self.to_config().max_variations_for(1).max(1)
    }

    /// Variations this configuration makes at its count.
    pub fn variations(&self) -> u64 {
        self.to_config().max_variations_for(self.count)
    }
}

/// Variations all `drafts` make together, on top of `existing` ones.
pub fn total(drafts: &[ConfigDraft], existing: u64) -> u64 {
    existing + drafts.iter().map(ConfigDraft::variations).sum::<u64>()
}

/// The largest count draft `index` may have so that the render keeps 20 variations at most, given the other
/// drafts and the `existing` variations. At least 0.
pub fn count_limit(drafts: &[ConfigDraft], index: usize, existing: u64) -> u64 {
    let others: u64 = drafts.iter().enumerate().filter(|(i, _)| *i != index).map(|(_, draft)| draft.variations()).sum();
    let left = MAX_VARIATIONS_PER_RENDER.saturating_sub(existing + others);
    drafts.get(index).map_or(0, |draft| left / draft.weight())
}

/// Whether a validation error belongs to draft `index` (`configs[i]...`, or `config`/`variation_count` when there
/// is a single draft), and to which of its fields: `Some("variation_count")`, `Some("")` for the config itself.
pub fn error_for(error: &ValidationError, index: usize, single: bool) -> Option<&str> {
    let field = error.field.as_str();
    if single {
        if field == "variation_count" {
            return Some("variation_count");
        }
        return field.strip_prefix("config").map(|rest| rest.trim_start_matches('.'));
    }
    let rest = field.strip_prefix(&format!("configs[{index}]"))?;
    Some(rest.trim_start_matches('.'))
}

/// The request for these choices (single form for one configuration, multi form for several).
pub fn render_request(
    image_url: &str,
    drafts: &[ConfigDraft],
    webhook_url: &str,
    wait_for_completion: bool,
) -> CreateRender {
    let configs = match drafts {
        [only] => RenderConfigs::Single { config: only.to_config(), variation_count: only.count },
        many => RenderConfigs::Multi {
            configs: many
                .iter()
                .map(|draft| ConfigEntry { config: draft.to_config(), variation_count: draft.count })
                .collect(),
        },
    };
    CreateRender {
        image_url: image_url.trim().to_string(),
        image_urls: Vec::new(),
        configs,
        webhook_url: Some(webhook_url.trim().to_string()).filter(|url| !url.is_empty()),
        wait_for_completion: wait_for_completion.then_some(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn one_configuration_is_the_single_form_and_more_the_multi_form() {
        let one = render_request("  https://img.example/room.jpg ", &[ConfigDraft::default()], " ", false);
        assert_eq!(one.image_url, "https://img.example/room.jpg");
        assert!(matches!(one.configs, RenderConfigs::Single { variation_count: 1, .. }), "{:?}", one.configs);
        assert_eq!((one.webhook_url, one.wait_for_completion), (None, None));

        let drafts = [ConfigDraft::default(), ConfigDraft { count: 3, ..ConfigDraft::default() }];
        let many = render_request("https://img.example/room.jpg", &drafts, " https://hooks.example/in ", true);
        let RenderConfigs::Multi { configs } = &many.configs else { panic!("{:?}", many.configs) };
        assert_eq!(configs.iter().map(|entry| entry.variation_count).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(many.webhook_url.as_deref(), Some("https://hooks.example/in"));
        assert_eq!(many.wait_for_completion, Some(true));
    }
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn kinds_are_named_in_the_studio_s_language() {
        assert_eq!(Kind::Staging.label(Locale::en), "Virtual staging");
        assert_eq!(Kind::Enhancement.explained(Locale::en), "Better colour, contrast and sharpness.");
        assert_eq!(Kind::DayToDusk.label(Locale::de), "Tag zu Dämmerung");
    }
}
