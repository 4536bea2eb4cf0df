//! `open_enum!`: string enums that keep values they do not know (read liberally, write strictly).
//! Known values serialise exactly as service-api.md spells them; any other string is kept in `Other` and written back as is.

/// Declares `pub enum Name { Known = "wire", ..., }` plus an `Other(String)` variant, with serde, `as_str`,
/// `Display`, `From<&str>` and `KNOWN` (the known values in order). `Known = "wire" | "alias"` also reads the
/// aliases as `Known`; it is always written as the first spelling.
#[macro_export]
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal $(| $alias:literal)* ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value this version of vstage does not know, kept as sent.
            Other(String),
        }

        impl $name {
            /// Every value vstage knows, in the contract's order.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];

            /// The value as it goes over the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $wire, )+
                    $name::Other(value) => value,
                }
            }

            /// Whether this is one of the values vstage knows.
            pub fn is_known(&self) -> bool {
                !matches!(self, $name::Other(_))
            }
        }

        impl From<&str> for $name {
            fn from(value: &str) -> Self {
                match value {
                    $( $wire $(| $alias)* => $name::$variant, )+
                    other => $name::Other(other.to_string()),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                Ok($name::from(value.as_ref()))
            }
        }
    };
}
