//! What the reference reader makes of an image's content credentials (`reading`): whether they verify and whether
//! this server's signer made them, who signed, what they say was done and by what, and whether the original photo
//! kept beside the image is the parent they name.

/// How far the credentials hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// Intact, and signed by this server's signer (or under its authority).
    Trusted,
    /// Intact, but signed by someone this server does not know.
    Valid,
    /// Broken: the image changed after it was signed, or the signature or its certificate does not hold.
    Invalid,
}

/// Whether the kept original is the parent photo the credentials name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OriginalCheck {
    Matches,
    Differs,
    /// The credentials name no parent photo with its hash.
    NotNamed,
    /// No original was given to compare.
    NotCompared,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The image carries no content credentials.
    Absent,
    /// This server is built without content credentials (`IN_THIS_BUILD`): it signs none and reads none.
    NotInThisBuild,
    Read {
        trust: Trust,
        /// The signer's name and organization, as its certificate gives them.
        signer: Option<String>,
        organization: Option<String>,
        /// The software agent of the edit (the service) and IPTC's digital source type.
        agent: Option<String>,
        source_type: Option<String>,
        original: OriginalCheck,
        /// The reader's failure codes, for the log and the curious.
        problems: Vec<String>,
    },
}
