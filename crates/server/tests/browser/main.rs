//! Browser end-to-end tests: the built widget served by the real `vstage serve`, driven in headless Chromium
//! through chromedriver. `cargo xtask test` builds the widget first and runs these last.

#[path = "../support/mod.rs"]
mod support;

mod accessibility;
mod allowance;
mod board;
mod browser;
mod chunks;
mod classic;
mod demo;
mod dev_loop;
mod disclosure;
mod embed;
mod figures;
mod first_screens;
mod header;
mod host_controls;
mod host_kit;
mod keyboard;
mod locales;
mod mask;
mod phone;
mod real_service;
mod studio;
