//! Timestamps as the contract sends them: epoch milliseconds as a JSON number, integer or float.
//! The number is kept exactly as it came, so re-serialising never changes it.

use serde::{Deserialize, Serialize};

/// Milliseconds since the Unix epoch, now (native code: the browser's clock is `Date.now()`).
#[cfg(not(target_arch = "wasm32"))]
pub fn now_millis() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// Epoch milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(serde_json::Number);

impl Timestamp {
    pub fn from_millis(millis: i64) -> Self {
        Timestamp(millis.into())
    }

    /// Milliseconds since the epoch (fractions of a millisecond dropped).
    pub fn millis(&self) -> i64 {
        self.0.as_i64().or_else(|| self.0.as_u64().map(|m| m.min(i64::MAX as u64) as i64)).unwrap_or_else(|| {
            let float = self.0.as_f64().unwrap_or(0.0);
            float as i64
        })
    }
}

impl From<i64> for Timestamp {
    fn from(millis: i64) -> Self {
        Timestamp::from_millis(millis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_floats_are_read_and_written_back_unchanged() {
        for json in ["1732190400000", "1732190400000.5", "0"] {
            let time: Timestamp = serde_json::from_str(json).unwrap();
            assert_eq!(serde_json::to_string(&time).unwrap(), json);
        }
        let float: Timestamp = serde_json::from_str("1732190400000.9").unwrap();
        assert_eq!(float.millis(), 1_732_190_400_000);
        assert!(serde_json::from_str::<Timestamp>("\"yesterday\"").is_err());
    }
}
