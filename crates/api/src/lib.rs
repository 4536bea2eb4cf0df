//! The wire between the widget, the server and the Virtual Staging Image Service (`docs/service-api.md`).
//! Owns every request and response type, the checks of the contract's bounds, and the HTTP client.
//!
//! Read liberally, write strictly: unknown fields are ignored, unknown enum values are kept, and every bound the
//! contract states is checked before a request is sent.

pub mod addresses;
pub mod analysis;
pub mod board;
pub mod capabilities;
pub mod client;
pub mod config;
pub mod disclosure;
pub mod error;
pub mod host_events;
pub mod host_reference;
mod lenient;
pub mod multi_view;
pub mod multipart;
mod open_enum;
mod query;
pub mod render;
pub mod requests;
#[cfg(feature = "signature")]
pub mod signature;
mod tagged;
pub mod time;
pub mod transport;
pub mod usage;
pub mod user;
pub mod v1;
pub mod validate;
pub mod vocabulary;
pub mod webhook;

pub use analysis::Analysis;
pub use board::{AddToBoard, Board, BoardRender};
pub use capabilities::{Capabilities, Sample, Uploaded};
pub use client::{Auth, BulkChunk, Client, RetryPolicy};
pub use config::{
    AddFurniture, Config, DayToDuskConfig, EnhancementConfig, LegacyStagingConfig, RemovalOnlyConfig, RemoveFurniture,
    StagingConfig,
};
pub use error::ApiError;
pub use multipart::PhotoFile;
pub use render::{Page, Render, RenderPage, ResultImage, Variation, VariationPage, VariationResult};
pub use requests::{
    AddVariations, AddedVariations, Analyze, BulkAddVariations, BulkAddedVariations, BulkCreateRenders,
    BulkCreatedRenders, BulkRender, BulkVariations, ConfigEntry, CreateRender, GetRender, ListRenders, ListVariations,
    Message, RenderConfigs, SetWebhookSecret,
};
pub use time::Timestamp;
pub use user::{Limit, PhotoCounts, PhotoLimits, User, UserIdentity};
pub use validate::{MAX_VARIATIONS_PER_RENDER, Rule, ValidationError};
pub use vocabulary::{
    AnalysisStatus, OutputResolution, RemovalMode, RoomType, SkyStyle, SortOrder, Style, VariationStatus, VariationType,
};
pub use webhook::WebhookEvent;
