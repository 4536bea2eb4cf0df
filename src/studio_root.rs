//! The shadow root a studio lives in, given to the components below it (`embed` provides it): for the screens'
//! styles and for moving the focus to an element of the studio.

use send_wrapper::SendWrapper;
use web_sys::ShadowRoot;

/// The shadow root a studio lives in.
#[derive(Clone)]
pub struct StudioRoot(pub SendWrapper<ShadowRoot>);
