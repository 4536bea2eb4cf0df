//! `vstage allowance set|list`: subjects' own allowances of photos a period (serve's `--allowance-period`), in the database the servers share.

use crate::cli::{AllowanceAction, AllowanceArgs};
use crate::commands::say;
use crate::storage;
use crate::storage::store::{Setting, SubjectAllowance};

pub async fn run(args: AllowanceArgs) -> anyhow::Result<()> {
    let store = storage::open_existing(args.database.database.as_deref(), &args.database.data_dir).await?;
    match args.action {
        AllowanceAction::Set { subject, allowance } => {
            anyhow::ensure!(!subject.is_empty(), "name the subject, as the host site's tokens name it");
            store.set_allowance(&subject, allowance).await?;
            say(&format!("{subject}: {}", described(&allowance)));
        }
        AllowanceAction::List => {
            for (subject, allowance) in store.allowances(None).await? {
                say(&format!("{subject}: {}", described(&allowance)));
            }
        }
    }
    Ok(())
}

/// `staging 30, image-editing default`.
fn described(allowance: &SubjectAllowance) -> String {
    let word = |setting: Setting| match setting {
        Setting::Default => "default".to_string(),
        Setting::Unlimited => "unlimited".to_string(),
        Setting::Photos(photos) => format!("{photos} a period"),
    };
    format!("staging {}, image-editing {}", word(allowance.staging), word(allowance.image_editing))
}
