//! What the originals page finds of the listing photo's content credentials (`results::credentials`): read back
//! by the reference crate's reader, trusting this server's signer, with the kept original to compare with the
//! parent they name. Kept files do not change, so each photo is read once, on the blocking pool, one per core at
//! a time, and remembered (a bounded number of them: the page is public).

use std::collections::HashMap;
use std::sync::Mutex;

use super::Disclosures;
use crate::results::credentials::{self, Verdict, media_type};
use crate::storage::store::DisclosureRecord;

/// The verdicts remembered at most; past it one is forgotten for each new one, and read again when asked for.
const REMEMBERED: usize = 4096;

/// The verdicts remembered, and the readings' turns: one per core, their own (a disclosure's decodes, which wait
/// on the subject's copies, never hold the public page back).
#[derive(Debug)]
pub struct Verdicts {
    remembered: Mutex<HashMap<String, Verdict>>,
    reading: tokio::sync::Semaphore,
}

impl Default for Verdicts {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Verdicts { remembered: Mutex::default(), reading: tokio::sync::Semaphore::new(cores) }
    }
}

impl Disclosures {
    /// The verdict on `record`'s photo, `None` when this server signs no credentials or the files cannot be read;
    /// in a build without content credentials, that they are not in it.
    pub(super) async fn verdict(&self, record: &DisclosureRecord) -> Option<Verdict> {
        let credentials = self.kept.credentials()?.clone();
        if !credentials::IN_THIS_BUILD {
            return Some(Verdict::NotInThisBuild);
        }
        if let Some(known) = self.remembered().get(&record.photo_file) {
            return Some(known.clone());
        }
        // One reading per core at a time: the page is public, and its first views come together. A view that
        // waited finds the verdict another reached meanwhile.
        let _turn = self.verdicts.reading.acquire().await.ok()?;
        if let Some(known) = self.remembered().get(&record.photo_file) {
            return Some(known.clone());
        }
        let photo = self.kept.read_file(&record.photo_file).await.ok()?;
        let original = self.kept.read_file(&record.original_file).await.ok()?;
        let format = media_type(&photo)?;
        let verdict =
            tokio::task::spawn_blocking(move || credentials.verify(&photo, format, Some(&original))).await.ok()?;
        let mut remembered = self.remembered();
        if remembered.len() >= REMEMBERED {
            // One forgotten, not all: past the bound, the pages viewed most are not all read again at once.
            if let Some(forgotten) = remembered.keys().next().cloned() {
                remembered.remove(&forgotten);
            }
        }
        remembered.insert(record.photo_file.clone(), verdict.clone());
        Some(verdict)
    }

    fn remembered(&self) -> std::sync::MutexGuard<'_, HashMap<String, Verdict>> {
        self.verdicts.remembered.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
