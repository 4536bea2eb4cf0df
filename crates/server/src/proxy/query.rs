//! A browser's query string as the proxy forwards it: decoded into parameters, each name at most once (a second
//! value is refused, never guessed at), and encoded again by this server, so the service reads exactly the values
//! the ownership checks read.

use crate::error::ServerError;

#[derive(Debug, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
    encoded: String,
}

impl Query {
    pub fn parse(raw: &str) -> Result<Query, ServerError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (name, value) in url::form_urlencoded::parse(raw.as_bytes()) {
            if name.is_empty() {
                continue;
            }
            if pairs.iter().any(|(seen, _)| *seen == name) {
                return Err(ServerError::BadRequest(format!("The query gives {name} twice; give it once.")));
            }
            pairs.push((name.into_owned(), value.into_owned()));
        }
        let encoded = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(&pairs).finish();
        Ok(Query { pairs, encoded })
    }

    /// The decoded value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(seen, _)| seen == name).map(|(_, value)| value.as_str())
    }

    /// The decoded parameters.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(name, value)| (name.as_str(), value.as_str()))
    }

    /// This server's encoding of the parameters (empty when there are none).
    pub fn encoded(&self) -> &str {
        &self.encoded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_given_twice_is_refused_however_it_is_spelled() {
        for raw in ["render_id=a&render_id=b", "render_id=a&render%5Fid=b", "render%5fid=a&render_id=b"] {
            assert!(matches!(Query::parse(raw), Err(ServerError::BadRequest(_))), "{raw}");
        }
    }

    #[test]
    fn values_are_decoded_once_and_encoded_again() {
        let query = Query::parse("render_id=rnd%5F1&style=mid-century+modern&&=x&note=a%26b%3Dc").unwrap();
        assert_eq!(query.get("render_id"), Some("rnd_1"));
        assert_eq!(query.get("style"), Some("mid-century modern"));
        assert_eq!(query.encoded(), "render_id=rnd_1&style=mid-century+modern&note=a%26b%3Dc");
        assert_eq!(Query::parse("").unwrap().encoded(), "");
    }
}
