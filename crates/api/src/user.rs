//! The account as `GET /v2/user` describes it: who it is, its photo limits and what it used this period.
//! Usage is counted per kind: `staging` (staging and removal) and `imageEditing` (day-to-dusk, enhancement).

use serde::{Deserialize, Serialize};

/// `GET /v2/user`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct User {
    /// Absent for a widget token's holder: `vstage serve` shows tokens usage, not the operator's identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<UserIdentity>,
    #[serde(rename = "photoLimit")]
    pub photo_limit: PhotoCounts,
    #[serde(rename = "photosUsedThisPeriod")]
    pub photos_used_this_period: PhotoCounts,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserIdentity {
    pub email: String,
    pub uid: String,
}

/// A number of photos per kind of processing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoCounts {
    #[serde(default)]
    pub staging: u64,
    #[serde(default, rename = "imageEditing")]
    pub image_editing: u64,
}

impl User {
    /// The staging usage as `(used, limit)`.
    pub fn staging_usage(&self) -> (u64, u64) {
        (self.photos_used_this_period.staging, self.photo_limit.staging)
    }

    /// The image-editing usage as `(used, limit)`.
    pub fn image_editing_usage(&self) -> (u64, u64) {
        (self.photos_used_this_period.image_editing, self.photo_limit.image_editing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_contract_shape_and_ignores_unknown_fields() {
        let json = r#"{
            "user": {"email": "agent@example.com", "uid": "u_1", "plan": "pro"},
            "photoLimit": {"staging": 100, "imageEditing": 50},
            "photosUsedThisPeriod": {"staging": 3, "imageEditing": 0},
            "somethingNew": true
        }"#;
        let user: User = serde_json::from_str(json).unwrap();
        assert_eq!(user.user.as_ref().unwrap().email, "agent@example.com");
        assert_eq!(user.staging_usage(), (3, 100));
        assert_eq!(user.image_editing_usage(), (0, 50));
    }

    #[test]
    fn writes_the_contract_field_names() {
        let user = User {
            user: Some(UserIdentity { email: "a@b.c".into(), uid: "u".into() }),
            photo_limit: PhotoCounts { staging: 10, image_editing: 5 },
            photos_used_this_period: PhotoCounts { staging: 1, image_editing: 2 },
        };
        let value = serde_json::to_value(&user).unwrap();
        assert_eq!(value["photoLimit"]["imageEditing"], 5);
        assert_eq!(value["photosUsedThisPeriod"]["staging"], 1);
    }
}
