//! Code that loads on first use: the screens (the one an element starts on is fetched early by `/embed.js`), their
//! styles (`www/screens.css`, adopted by every chunk, and `www/pages.css`, by every one but the renders list's), the
//! mask editor, and the parts of screens drawn only once used (a form opened, a dialog, the board's photos and rows). In the release build (`--cfg vstage_split`, see `xtask/src/widget.rs`) each function declared with
//! `chunk!` becomes a wasm chunk of its own, fetched the first time it is called; elsewhere (tests, `cargo check`)
//! it is an ordinary function.
//! Either way it is awaited, and a chunk that could not be fetched is a `ChunkError`, never a panic.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use leptos::prelude::*;
use leptos_i18n::td_string;
use send_wrapper::SendWrapper;

use crate::locale::use_locale;

/// A chunk could not be fetched (the network failed); calling the function again tries again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkError;

impl From<leptos::wasm_split::SplitLoaderError> for ChunkError {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkError
    }
}

/// `chunk! { fn name(args) -> T { body } }` declares `async fn name(args) -> Result<T, ChunkError>`, split into a
/// chunk named `name` when the widget is built split. The body runs once the chunk is there, unless the place that
/// asked for it ([`screen`]) was left meanwhile: what it was given (the signals of a screen left) may be gone. It adopts the screens' styles (`www/screens.css` and
/// `www/pages.css`); `chunk! { list fn ... }` only those every screen comes with, for the renders list and what loads
/// with it.
macro_rules! chunk {
    (@styles [$($styles:tt)*] $(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$meta])*
        #[cfg(vstage_split)]
        #[::leptos::wasm_split::wasm_split($name, wasm_split_path = ::leptos::wasm_split, fallible)]
        $vis fn $name($($arg: $ty),*) -> Result<$ret, $crate::chunks::ChunkError> {
            if $crate::chunks::place_left() {
                return Err($crate::chunks::ChunkError);
            }
            $($styles)*
            Ok($body)
        }

        $(#[$meta])*
        #[cfg(not(vstage_split))]
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, $crate::chunks::ChunkError> {
            if $crate::chunks::place_left() {
                return Err($crate::chunks::ChunkError);
            }
            $($styles)*
            Ok($body)
        }
    };
    ($(#[$meta:meta])* list $vis:vis fn $($rest:tt)*) => {
        $crate::chunks::chunk! {
            @styles [$crate::styles::apply_screen_styles();] $(#[$meta])* $vis fn $($rest)*
        }
    };
    ($(#[$meta:meta])* $vis:vis fn $($rest:tt)*) => {
        $crate::chunks::chunk! {
            @styles [$crate::styles::apply_screen_styles(); $crate::styles::apply_page_styles();]
            $(#[$meta])* $vis fn $($rest)*
        }
    };
}
pub(crate) use chunk;

/// A chunk's function called: the screen it makes, once fetched.
pub type Loading = Pin<Box<dyn Future<Output = Result<AnyView, ChunkError>>>>;

/// A screen, or a part of one, from a chunk: nothing while it loads (it is small, and cached for good once fetched),
/// then the screen; or a sentence and "Try again" when it could not be fetched. One body for every chunk (`load` is boxed), so each
/// new chunk adds its call and not another copy of this to the first load.
pub fn screen(load: impl Fn() -> Loading + Send + Sync + 'static) -> AnyView {
    load_screen(Arc::new(load))
}

fn load_screen(load: Arc<dyn Fn() -> Loading + Send + Sync>) -> AnyView {
    let attempt = RwSignal::new(0u32);
    let locale = use_locale();
    (move || {
        attempt.track();
        let wanted = Wanted::here();
        let loading = SendWrapper::new(load());
        Suspend::new(async move {
            match loading.await {
                Ok(screen) => screen,
                Err(_) if !wanted.still() => ().into_any(),
                Err(_) => view! {
                    <div class="vstage-panel vstage-panel--error" role="alert">
                        <p>{move || td_string!(locale.get(), common.chunk_failed)}</p>
                        <button type="button" class="vstage-button" on:click=move |_| attempt.update(|n| *n += 1)>
                            {move || td_string!(locale.get(), common.try_again)}
                        </button>
                    </div>
                }
                .into_any(),
            }
        })
    })
    .into_any()
}

/// Whether what a chunk draws is still wanted where it was asked for: no longer once that place is gone (its screen
/// left, its dialog closed) or asks again.
#[derive(Clone)]
struct Wanted(Arc<AtomicBool>);

impl Wanted {
    /// Wanted in the current place until it is cleaned up; the chunks it asks for find it ([`place_left`]).
    fn here() -> Wanted {
        let wanted = Wanted(Arc::new(AtomicBool::new(true)));
        provide_context(wanted.clone());
        let left = wanted.clone();
        on_cleanup(move || left.0.store(false, Ordering::Relaxed));
        wanted
    }

    fn still(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Whether the place that asked for the chunk now arriving was left while it came (code loaded outside a
/// [`screen`], with no place, never is).
pub fn place_left() -> bool {
    use_context::<Wanted>().is_some_and(|wanted| !wanted.still())
}
