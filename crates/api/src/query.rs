//! Query strings and path segments for the client's URLs: only the parameters that are set, percent-encoded.
//! Ids the service made are encoded anyway so that no value can change the URL's shape.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// Everything but RFC 3986's unreserved characters is encoded.
const RESERVED: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// `?a=1&b=x` from the set pairs, or an empty string when none is set.
pub fn encode(pairs: &[(&str, Option<String>)]) -> String {
    let mut query = String::new();
    for (name, value) in pairs {
        if let Some(value) = value {
            query.push(if query.is_empty() { '?' } else { '&' });
            query.push_str(name);
            query.push('=');
            query.push_str(&percent_encode(value));
        }
    }
    query
}

/// One path segment or query value, encoded.
pub fn percent_encode(value: &str) -> String {
    utf8_percent_encode(value, RESERVED).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_set_parameters_are_written_and_values_are_encoded() {
        assert_eq!(encode(&[("limit", None)]), "");
        assert_eq!(
            encode(&[("limit", Some("5".into())), ("cursor", Some("a b&c".into()))]),
            "?limit=5&cursor=a%20b%26c"
        );
        assert_eq!(percent_encode("r_1/../x"), "r_1%2F..%2Fx");
    }
}
