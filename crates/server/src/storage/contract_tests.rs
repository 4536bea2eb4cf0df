//! The `Store` contract, each test run against SQLite and against PostgreSQL (a fresh database on the private
//! cluster under `target/postgres`, started on first use; `cargo xtask test` removes it at the end).

use std::sync::Arc;

use futures_util::StreamExt;
use vstage_api::board::{BoardRender, MAX_BOARD_RENDERS};
use vstage_api::host_reference::HostReference;

use super::boards::Boards;
use super::postgres::Postgres;
use super::sqlite::Sqlite;
use super::store::{
    AddedTo, ClaimReporter, Creation, Delivery, DisclosureCursor, DisclosureRecord, KeptFile, Kind, LedgerRow,
    LevelReached, LevelReports, Limits, RefundBounds, RenderPhoto, RenderShare, Reservation, Reserved, Setting,
    SignerRecord, Store, StoredEvent, SubjectAllowance, UploadRecord,
};
use super::store::{CapReached, RecordsCap};
use crate::live::webhooks::SEEN_FOR_MS;
use vstage_api::usage::{Cost, UsageKind, UsageLevel};

/// Runs `test` on a new SQLite database, then on a new PostgreSQL one; a failure names the database.
async fn on_both<Test, Testing>(test: Test)
where
    Test: Fn(Arc<dyn Store>) -> Testing,
    Testing: Future<Output = ()>,
{
    let dir = tempfile::tempdir().unwrap();
    let sqlite: Arc<dyn Store> = Arc::new(Sqlite::open(dir.path()).unwrap());
    test(sqlite).await;
    test(postgres().await).await;
}

/// A new database on the private cluster.
async fn postgres() -> Arc<dyn Store> {
    Arc::new(Postgres::connect(&fresh_database().await).await.expect("connects and migrates"))
}

/// The URL of a new database on the private cluster.
async fn fresh_database() -> String {
    tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("store"))
        .await
        .unwrap()
        .expect("a fresh database on the private PostgreSQL cluster")
}

fn render(id: &str, label: &str) -> BoardRender {
    BoardRender { render_id: id.into(), label: label.into() }
}

fn delivery(id: &str, body: &str, now: i64) -> Delivery {
    Delivery {
        kind: Kind::Render,
        id: id.into(),
        resource: format!("Render:{id}"),
        event_type: "done".into(),
        data: body.into(),
        digest: body.as_bytes().to_vec(),
        creation: None,
        unowned_subject: String::new(),
        now,
        seen_since: now - SEEN_FOR_MS,
        events_since: 0,
        reported: None,
        created: None,
    }
}

#[tokio::test]
async fn ownership_is_per_subject_and_pages_in_order() {
    on_both(|store| async move {
        let ids: Vec<String> = (0..5).map(|n| format!("rnd_{n}")).collect();
        store.record_owners(Kind::Render, &ids[..3], "alice", &[]).await.unwrap();
        store.record_owners(Kind::Render, &ids[3..], "bob", &[]).await.unwrap();
        // a retried record changes nothing, another kind is another id space
        store.record_owners(Kind::Render, &ids[..1], "bob", &[]).await.unwrap();
        store.record_owners(Kind::Analysis, &ids[..1], "bob", &[]).await.unwrap();
        assert!(store.owns_all(Kind::Render, &ids[..3], "alice").await.unwrap());
        assert!(!store.owns_all(Kind::Render, &ids[..4], "alice").await.unwrap());
        assert!(!store.owns_all(Kind::Render, &["nobody's".into()], "alice").await.unwrap());
        assert!(store.owns_all(Kind::Analysis, &ids[..1], "bob").await.unwrap());

        let first = store.owned_page(Kind::Render, "alice", None, 2, None, false).await.unwrap();
        assert_eq!((first.ids.as_slice(), first.total), (&["rnd_2".to_string(), "rnd_1".into()][..], 3));
        let cursor = first.next_cursor.unwrap();
        let second = store.owned_page(Kind::Render, "alice", None, 2, Some(&cursor), false).await.unwrap();
        assert_eq!((second.ids, second.next_cursor), (vec!["rnd_0".to_string()], None));
        let oldest = store.owned_page(Kind::Render, "alice", None, 10, None, true).await.unwrap();
        assert_eq!(oldest.ids, ["rnd_0", "rnd_1", "rnd_2"]);
        let refused = store.owned_page(Kind::Render, "alice", None, 2, Some("rnd_3"), false).await.unwrap_err();
        assert!(refused.to_string().contains("not one of your renders"), "{refused}");
    })
    .await;
}

#[tokio::test]
async fn a_board_keeps_its_order_per_subject() {
    on_both(|store| async move {
        let boards = Boards::new(store);
        let ids = |board: &vstage_api::board::Board| -> Vec<String> {
            board.renders.iter().map(|r| r.render_id.clone()).collect()
        };
        boards.add("alice", vec![render("r1", "Kitchen.jpg"), render("r2", "Bath.jpg")]).await.unwrap();
        let board = boards.add("alice", vec![render("r3", ""), render("r1", "renamed")]).await.unwrap();
        assert_eq!(ids(&board), ["r1", "r2", "r3"]);
        assert_eq!(board.renders[0].label, "Kitchen.jpg", "a render already there keeps its label");
        assert!(boards.board("bob").await.unwrap().renders.is_empty(), "bob has a board of his own");

        assert_eq!(ids(&boards.remove("alice", "r2".into()).await.unwrap()), ["r1", "r3"]);
        let board = boards.add("alice", vec![render("r2", "Bath.jpg")]).await.unwrap();
        assert_eq!(ids(&board), ["r1", "r3", "r2"], "added again, it goes last");
        assert!(boards.clear("alice").await.unwrap().renders.is_empty());
        assert!(boards.board("alice").await.unwrap().renders.is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_board_is_bounded() {
    on_both(|store| async move {
        let boards = Boards::new(store);
        let many: Vec<_> = (0..MAX_BOARD_RENDERS).map(|n| render(&format!("r{n}"), "")).collect();
        boards.add("alice", many).await.unwrap();
        let refused = boards.add("alice", vec![render("one-more", "")]).await.unwrap_err();
        assert!(refused.to_string().contains("at most 200"), "{refused}");
        assert_eq!(boards.board("alice").await.unwrap().renders.len(), MAX_BOARD_RENDERS, "nothing was added");
        // adding one already there is no growth
        boards.add("alice", vec![render("r0", "")]).await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_delivery_is_stored_once_for_its_owner_and_remembered_for_a_week() {
    on_both(|store| async move {
        store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &[]).await.unwrap();
        let first = store.receive_delivery(delivery("rnd_a", "{1}", 1_000)).await.unwrap().unwrap();
        assert_eq!(first.subject, "alice");
        assert!(store.receive_delivery(delivery("rnd_a", "{1}", 2_000)).await.unwrap().is_none(), "a duplicate");
        let week_later = 1_000 + SEEN_FOR_MS + 1;
        let again = store.receive_delivery(delivery("rnd_a", "{1}", week_later)).await.unwrap();
        assert!(again.is_some_and(|again| again.id > first.id), "forgotten after a week, so new again");
    })
    .await;
}

#[tokio::test]
async fn events_wait_for_their_owner_and_replay_in_order() {
    on_both(|store| async move {
        let bounds = store.event_log_bounds().await.unwrap();
        assert_eq!((bounds.newest, bounds.dropped_through), (0, 0));
        // One for alice's render, one before its owner is known, one in open access.
        store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &[]).await.unwrap();
        let owned = store.receive_delivery(delivery("rnd_a", "{a}", 10)).await.unwrap().unwrap();
        let early = store.receive_delivery(delivery("rnd_b", "{b}", 11)).await.unwrap().unwrap();
        assert_eq!(early.subject, "", "kept for a later claim");
        let open = Delivery { unowned_subject: "local".into(), ..delivery("rnd_c", "{c}", 12) };
        assert_eq!(store.receive_delivery(open).await.unwrap().unwrap().subject, "local");
        assert!(store.events_since("alice", 0, 10).await.unwrap().iter().all(|event| event.id != early.id));

        store.record_owners(Kind::Render, &["rnd_b".into()], "alice", &[]).await.unwrap();
        // the claim reports each event it gives, in its transaction, for the subject that claimed it
        let report: Arc<ClaimReporter> = Arc::new(|event: &StoredEvent| {
            vec![outbox_entry(&format!("{}-{}", event.subject, event.data), "https://host.example/in", "rnd_b", 1)]
        });
        let claimed = store.claim_events(&["Render:rnd_b".into()], "alice", Some(report.clone())).await.unwrap();
        // Under a new id, after the last one given (the open-access event's): a stream past the old id hears it.
        let claimed_id = early.id + 2;
        assert_eq!(
            claimed.iter().map(|event| (event.id, event.data.as_str())).collect::<Vec<_>>(),
            [(claimed_id, "{b}")]
        );
        let again = store.claim_events(&["Render:rnd_b".into()], "alice", Some(report)).await.unwrap();
        assert!(again.is_empty(), "claimed once");
        let reported: Vec<String> = store.deliveries(None, 10).await.unwrap().into_iter().map(|row| row.id).collect();
        assert_eq!(reported, ["alice-{b}"], "reported once, as its claimant's");

        let alice: Vec<i64> = store.events_since("alice", 0, 10).await.unwrap().iter().map(|e| e.id).collect();
        assert_eq!(alice, [owned.id, claimed_id]);
        assert_eq!(store.events_since("alice", claimed_id - 1, 10).await.unwrap().len(), 1, "a resume past the old id");
        assert_eq!(store.events_since("alice", 0, 1).await.unwrap().len(), 1, "the limit holds");
        assert!(store.events_since("bob", 0, 10).await.unwrap().is_empty());
        assert_eq!(store.event_log_bounds().await.unwrap().newest, claimed_id);
    })
    .await;
}

#[tokio::test]
async fn a_renders_photo_is_kept_as_its_creation_first_named_it() {
    on_both(|store| async move {
        let photo = |render: &str, view, address: &str| RenderPhoto {
            render_id: render.into(),
            view,
            address: format!("https://photos.example/{address}"),
        };
        assert_eq!(store.photo_of("rnd_a", 0).await.unwrap(), None);
        store.record_photos(&[photo("rnd_a", 0, "a.jpg")]).await.unwrap();
        store.record_photos(&[photo("rnd_a", 0, "other.jpg")]).await.unwrap();
        assert_eq!(store.photo_of("rnd_a", 0).await.unwrap().as_deref(), Some("https://photos.example/a.jpg"));
        store.record_photos(&[]).await.unwrap();
        // a multi-view render's views, each by its place
        let views = [photo("rnd_m", 0, "front.jpg"), photo("rnd_m", 1, "side.jpg"), photo("rnd_m", 2, "back.jpg")];
        store.record_photos(&views).await.unwrap();
        store.record_photos(&[photo("rnd_m", 1, "other.jpg")]).await.unwrap();
        for view in &views {
            assert_eq!(store.photo_of("rnd_m", view.view).await.unwrap().as_ref(), Some(&view.address));
        }
        assert_eq!(store.photo_of("rnd_m", 3).await.unwrap(), None);
        assert_eq!(store.photo_of("rnd_a", 1).await.unwrap(), None);
        // A delivery that names a creation before its answer is recorded adopts the creation's photo too.
        let photo = Some("https://photos.example/b.jpg");
        let creation = Creation {
            token: "crt_b",
            kind: Kind::Render,
            subject: "alice",
            photo,
            reference: None,
            references_differ: false,
        };
        store.record_creation(&creation, 1_000).await.unwrap();
        let named = Delivery { creation: Some("crt_b".into()), ..delivery("rnd_b", "{b}", 2_000) };
        assert_eq!(store.receive_delivery(named).await.unwrap().unwrap().subject, "alice");
        assert_eq!(store.photo_of("rnd_b", 0).await.unwrap().as_deref(), photo);
    })
    .await;
}

#[tokio::test]
async fn the_first_content_signer_kept_is_every_servers() {
    on_both(|store| async move {
        assert_eq!(store.signer().await.unwrap(), None);
        let signer = |n: &str| SignerRecord {
            chain_pem: format!("chain {n}"),
            key_pem: format!("key {n}"),
            root_pem: format!("root {n}"),
        };
        let (first, second) = (signer("1"), signer("2"));
        let kept = futures_util::future::join_all([store.keep_signer(&first), store.keep_signer(&second)]).await;
        let kept: Vec<SignerRecord> = kept.into_iter().map(Result::unwrap).collect();
        assert!(kept[0] == kept[1] && (kept[0] == first || kept[0] == second), "one signer for both");
        assert_eq!(store.signer().await.unwrap().as_ref(), Some(&kept[0]));
    })
    .await;
}

#[tokio::test]
async fn a_delivery_names_the_creator_of_a_render_whose_owner_was_never_recorded() {
    on_both(|store| async move {
        let started = |token, kind, subject| Creation {
            token,
            kind,
            subject,
            photo: None,
            reference: None,
            references_differ: false,
        };
        store.record_creation(&started("crt_1", Kind::Render, "alice"), 1_000).await.unwrap();
        store.record_creation(&started("crt_2", Kind::Analysis, "bob"), 1_000).await.unwrap();
        let named = |id: &str, body: &str, creation: &str| Delivery {
            creation: Some(creation.into()),
            ..delivery(id, body, 2_000)
        };
        // Another kind's creation, or an unknown one, names nobody.
        assert_eq!(store.receive_delivery(named("rnd_x", "{x}", "crt_2")).await.unwrap().unwrap().subject, "");
        assert_eq!(store.receive_delivery(named("rnd_y", "{y}", "crt_9")).await.unwrap().unwrap().subject, "");
        let adopted = store.receive_delivery(named("rnd_a", "{a}", "crt_1")).await.unwrap().unwrap();
        assert_eq!(adopted.subject, "alice");
        assert!(store.owns_all(Kind::Render, &["rnd_a".into()], "alice").await.unwrap(), "recorded as alice's");
        // A recorded owner is never replaced by a creation's.
        store.record_owners(Kind::Render, &["rnd_b".into()], "carol", &[]).await.unwrap();
        assert_eq!(store.receive_delivery(named("rnd_b", "{b}", "crt_1")).await.unwrap().unwrap().subject, "carol");
        // Creations are forgotten with the deliveries seen.
        let week_later = Delivery { creation: Some("crt_1".into()), ..delivery("rnd_c", "{c}", 2_000 + SEEN_FOR_MS) };
        assert_eq!(store.receive_delivery(week_later).await.unwrap().unwrap().subject, "");
    })
    .await;
}

#[tokio::test]
async fn events_past_the_window_leave_the_log_and_the_bounds_say_so() {
    on_both(|store| async move {
        store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &[]).await.unwrap();
        let old = store.receive_delivery(delivery("rnd_a", "{old}", 1_000)).await.unwrap().unwrap();
        let newer = Delivery { events_since: 1_500, ..delivery("rnd_a", "{newer}", 2_000) };
        let newer = store.receive_delivery(newer).await.unwrap().unwrap();
        let bounds = store.event_log_bounds().await.unwrap();
        assert_eq!((bounds.newest, bounds.dropped_through), (newer.id, old.id));
        // All dropped: the newest id stays, ids are never given again.
        let last = Delivery { events_since: 10_000, ..delivery("rnd_a", "{last}", 3_000) };
        let last = store.receive_delivery(last).await.unwrap().unwrap();
        let bounds = store.event_log_bounds().await.unwrap();
        assert_eq!((bounds.newest, bounds.dropped_through), (last.id, last.id));
        assert!(store.events_since("alice", 0, 10).await.unwrap().is_empty());
    })
    .await;
}

#[tokio::test]
async fn uploads_stay_within_the_quota() {
    on_both(|store| async move {
        let upload =
            |name: &str, bytes: u64| UploadRecord { name: name.into(), subject: "alice".into(), bytes, stored_at: 1 };
        assert_eq!(store.reserve_upload(&upload("a.jpg", 600), Some(1_000)).await.unwrap(), Ok(()));
        assert_eq!(store.reserve_upload(&upload("b.jpg", 500), Some(1_000)).await.unwrap(), Err(600));
        let bob = UploadRecord { subject: "bob".into(), ..upload("c.jpg", 900) };
        assert_eq!(store.reserve_upload(&bob, Some(1_000)).await.unwrap(), Ok(()), "bob has a quota of his own");
        store.forget_uploads(&["a.jpg".into()]).await.unwrap();
        assert_eq!(store.reserve_upload(&upload("b.jpg", 500), Some(1_000)).await.unwrap(), Ok(()));
        assert_eq!(store.reserve_upload(&upload("d.jpg", 5_000), None).await.unwrap(), Ok(()), "no quota");
    })
    .await;
}

#[tokio::test]
async fn kept_results_are_counted_removed_and_expired() {
    on_both(|store| async move {
        let file = |variation: &str, name: &str, kept_at: i64| KeptFile {
            render_id: "rnd_a".into(),
            variation_id: variation.into(),
            file: name.into(),
            image_index: 0,
            role: "url".into(),
            subject: "alice".into(),
            bytes: 100,
            kept_at,
            removed: false,
        };
        assert!(!store.ever_kept("rnd_a", "var_1").await.unwrap());
        let both = [file("var_1", "0-url.jpg", 10), file("var_1", "0-thumb.jpg", 10)];
        assert_eq!(store.record_kept(&both, &[], None).await.unwrap(), Ok(()));
        assert_eq!(store.record_kept(&[file("var_2", "0-url.jpg", 20)], &[], Some(300)).await.unwrap(), Ok(()));
        // recorded again: stays as it is
        assert_eq!(store.record_kept(&[file("var_2", "0-url.jpg", 99)], &[], Some(300)).await.unwrap(), Ok(()));
        // one more is past the quota: refused, nothing recorded
        let third = [file("var_3", "0-url.jpg", 30)];
        assert_eq!(store.record_kept(&third, &[], Some(300)).await.unwrap(), Err(300));
        assert!(!store.ever_kept("rnd_a", "var_3").await.unwrap());
        assert!(store.ever_kept("rnd_a", "var_1").await.unwrap());
        assert_eq!(store.kept_bytes("alice").await.unwrap(), 300);
        let mut files = store.kept_files(&["rnd_a".into(), "rnd_other".into()]).await.unwrap();
        files.sort_by(|a, b| (&a.variation_id, &a.file).cmp(&(&b.variation_id, &b.file)));
        assert_eq!(files[2], file("var_2", "0-url.jpg", 20));

        store.mark_kept_removed("rnd_a", "var_2").await.unwrap();
        assert_eq!(store.kept_bytes("alice").await.unwrap(), 200);
        assert!(store.ever_kept("rnd_a", "var_2").await.unwrap(), "a removed result is never copied again");
        let expired = store.take_expired_kept(15).await.unwrap();
        assert_eq!(expired.len(), 2, "var_1's two files: {expired:?}");
        assert!(store.take_expired_kept(15).await.unwrap().is_empty(), "each taken once");
        assert_eq!(store.kept_bytes("alice").await.unwrap(), 0);
        assert!(store.kept_files(&["rnd_a".into()]).await.unwrap().iter().all(|kept| kept.removed));
    })
    .await;
}

/// PostgreSQL only: what one server stores reaches another's feed, as it commits, claims included.
fn disclosure(id: &str, subject: &str, created_at: i64) -> DisclosureRecord {
    DisclosureRecord {
        id: id.into(),
        subject: subject.into(),
        created_at,
        render_id: "rnd_1".into(),
        variation_id: format!("var_{id}"),
        image_index: 2,
        variation_type: "staging".into(),
        style: "modern".into(),
        furniture_removed: true,
        profile: "smart-mls".into(),
        lang: "de".into(),
        photo_file: "rnd_1/var_1/2-url-labelled-de.jpg".into(),
        original_file: "rnd_1/original.jpg".into(),
        optimized_file: Some("rnd_1/var_1/2-optimized_url.jpg".into()),
        thumbnail_file: None,
        replaces: Some("https://a.example/1042/living.jpg".into()),
        reference: vstage_api::host_reference::HostReference {
            listing_id: Some("L-7".into()),
            metadata: Some([("mls".to_string(), serde_json::json!(1042))].into()),
            ..Default::default()
        },
    }
}

#[tokio::test]
async fn disclosures_are_read_back_whole_per_subject_newest_first() {
    on_both(|store| async move {
        for (id, subject, at) in [("dsc_a", "alice", 10), ("dsc_b", "bob", 20), ("dsc_c", "alice", 30)] {
            recorded(&store, &disclosure(id, subject, at)).await;
        }
        assert_eq!(store.disclosure("dsc_b").await.unwrap(), Some(disclosure("dsc_b", "bob", 20)));
        assert_eq!(store.disclosure("dsc_x").await.unwrap(), None);
        let ids = |records: Vec<DisclosureRecord>| records.into_iter().map(|r| r.id).collect::<Vec<_>>();
        assert_eq!(ids(store.disclosures(Some("alice"), 10, None).await.unwrap()), ["dsc_c", "dsc_a"]);
        assert_eq!(ids(store.disclosures(None, 10, None).await.unwrap()), ["dsc_c", "dsc_b", "dsc_a"]);
        let first = store.disclosures(None, 1, None).await.unwrap();
        assert_eq!(ids(first.clone()), ["dsc_c"]);
        let after = DisclosureCursor::decoded(&DisclosureCursor::after(&first[0]).encoded()).unwrap();
        assert_eq!(ids(store.disclosures(None, 5, Some(&after)).await.unwrap()), ["dsc_b", "dsc_a"], "the next page");
        assert!(
            store.record_disclosure(&disclosure("dsc_a", "bob", 40), &[], None).await.is_err(),
            "an id is recorded once"
        );
    })
    .await;
}

#[tokio::test]
async fn the_same_choice_is_recorded_once_and_a_subjects_day_is_counted() {
    on_both(|store| async move {
        let first = disclosure("dsc_a", "alice", 10);
        assert_eq!(recorded(&store, &first).await, first);
        let same_choice = DisclosureRecord { id: "dsc_b".into(), created_at: 20, ..first.clone() };
        assert_eq!(recorded(&store, &same_choice).await, first, "the first record of the choice");
        assert_eq!(store.disclosure_of_choice(&same_choice.choice()).await.unwrap(), Some(first.clone()));
        let other_language = DisclosureRecord { id: "dsc_c".into(), lang: "fr".into(), ..first.clone() };
        assert_eq!(recorded(&store, &other_language).await, other_language, "another choice");
        assert_eq!(store.disclosure("dsc_b").await.unwrap(), None);
        assert_eq!(store.disclosures_since("alice", 10).await.unwrap(), (2, Some(10)));
        assert_eq!(store.disclosures_since("alice", 11).await.unwrap(), (0, None));
        assert_eq!(store.disclosures_since("bob", 0).await.unwrap(), (0, None));
    })
    .await;
}

/// `record` recorded with no cap: the choice's record.
async fn recorded(store: &Arc<dyn Store>, record: &DisclosureRecord) -> DisclosureRecord {
    store.record_disclosure(record, &[], None).await.unwrap().expect("no cap")
}

/// How many of `outcomes` passed.
fn passed<T, E>(outcomes: &[Result<T, E>]) -> usize {
    outcomes.iter().filter(|outcome| outcome.is_ok()).count()
}

#[tokio::test]
async fn choices_made_at_once_never_make_more_records_than_the_cap() {
    on_both(|store| async move {
        let cap = Some(RecordsCap { most: 3, since: 100 });
        // one made before the cap's span does not count; one within it does
        recorded(&store, &disclosure("dsc_old", "alice", 50)).await;
        let first = disclosure("dsc_0", "alice", 150);
        assert_eq!(store.record_disclosure(&first, &[], cap).await.unwrap(), Ok(first.clone()));
        let tries = (1..=7).map(|n| {
            let store = store.clone();
            async move { store.record_disclosure(&disclosure(&format!("dsc_{n}"), "alice", 200 + n), &[], cap).await }
        });
        let outcomes = futures_util::future::join_all(tries).await;
        let records = outcomes.iter().filter(|outcome| matches!(outcome, Ok(Ok(_)))).count();
        assert_eq!(records, 2, "one before, two of the seven: {outcomes:?}");
        for outcome in outcomes {
            if let Err(refused) = outcome.unwrap() {
                assert_eq!(refused, CapReached { made: 3, oldest: Some(150) });
            }
        }
        assert_eq!(store.disclosures_since("alice", 100).await.unwrap().0, 3);
        // at the cap, a choice made before is still its record, and another subject is not held
        let again = DisclosureRecord { id: "dsc_again".into(), ..first.clone() };
        assert_eq!(store.record_disclosure(&again, &[], cap).await.unwrap(), Ok(first));
        let bobs = disclosure("dsc_bob", "bob", 300);
        assert_eq!(store.record_disclosure(&bobs, &[], cap).await.unwrap(), Ok(bobs));
    })
    .await;
}

#[tokio::test]
async fn uploads_at_once_never_pass_the_quota() {
    on_both(|store| async move {
        let tries = (0..10).map(|n| {
            let store = store.clone();
            async move {
                let upload =
                    UploadRecord { name: format!("{n}.jpg"), subject: "alice".into(), bytes: 300, stored_at: 1 };
                store.reserve_upload(&upload, Some(1_000)).await.unwrap()
            }
        });
        let outcomes = futures_util::future::join_all(tries).await;
        assert_eq!(passed(&outcomes), 3, "{outcomes:?}");
        assert!(outcomes.iter().all(|outcome| matches!(outcome, Ok(()) | Err(900))), "{outcomes:?}");
    })
    .await;
}

#[tokio::test]
async fn results_kept_at_once_never_pass_the_quota() {
    on_both(|store| async move {
        let tries = (0..10).map(|n| {
            let store = store.clone();
            async move {
                let file = KeptFile {
                    render_id: format!("rnd_{n}"),
                    variation_id: "var_1".into(),
                    file: "0-url.jpg".into(),
                    image_index: 0,
                    role: "url".into(),
                    subject: "alice".into(),
                    bytes: 100,
                    kept_at: 1,
                    removed: false,
                };
                store.record_kept(&[file], &[], Some(350)).await.unwrap()
            }
        });
        let outcomes = futures_util::future::join_all(tries).await;
        assert_eq!(passed(&outcomes), 3, "{outcomes:?}");
        assert_eq!(store.kept_bytes("alice").await.unwrap(), 300);
    })
    .await;
}

#[tokio::test]
async fn renders_added_at_once_never_pass_a_boards_bound() {
    on_both(|store| async move {
        let tries = (0..10).map(|n| {
            let store = store.clone();
            async move { store.board_add("alice", &[render(&format!("r{n}"), "")], 4).await.map(|_| ()) }
        });
        let outcomes = futures_util::future::join_all(tries).await;
        assert_eq!(passed(&outcomes), 4, "{outcomes:?}");
        assert_eq!(store.board("alice").await.unwrap().renders.len(), 4);
    })
    .await;
}

#[tokio::test]
async fn a_shared_store_announces_every_event_to_every_server() {
    let url = fresh_database().await;
    let first: Arc<dyn Store> = Arc::new(Postgres::connect(&url).await.unwrap());
    let second: Arc<dyn Store> = Arc::new(Postgres::connect(&url).await.unwrap());
    assert!(first.is_shared());
    // handed over once it listens: nothing stored from here on is missed
    let mut feed = second.event_feed().await.unwrap().expect("a feed");
    first.record_owners(Kind::Render, &["rnd_a".into()], "alice", &[]).await.unwrap();
    let stored = first.receive_delivery(delivery("rnd_a", "{a}", 1)).await.unwrap().unwrap();
    let unowned = first.receive_delivery(delivery("rnd_b", "{b}", 2)).await.unwrap().unwrap();
    first.record_owners(Kind::Render, &["rnd_b".into()], "bob", &[]).await.unwrap();
    first.claim_events(&["Render:rnd_b".into()], "bob", None).await.unwrap();
    let mut next = async || {
        tokio::time::timeout(std::time::Duration::from_secs(30), feed.next()).await.expect("announced").unwrap()
    };
    let heard: StoredEvent = next().await;
    assert_eq!(heard, stored);
    let claimed = next().await;
    assert_eq!(
        (claimed.id, claimed.subject.as_str(), claimed.data.as_str()),
        (unowned.id + 1, "bob", "{b}"),
        "an unowned event is announced when claimed, under a new id"
    );
}

/// PostgreSQL only: a claim of several renders' waiting events and deliveries about those renders, at once, all go
/// through: none waits on another for good (which PostgreSQL would end as a deadlock, failing a charged creation).
#[tokio::test]
async fn claims_and_deliveries_at_once_all_go_through() {
    let url = fresh_database().await;
    let store: Arc<dyn Store> = Arc::new(Postgres::connect(&url).await.unwrap());
    for round in 0..20 {
        let (first, second) = (format!("rnd_{round}_a"), format!("rnd_{round}_b"));
        // an event about the first that came before its owner was recorded
        store.receive_delivery(delivery(&first, &format!("{{\"waiting\":{round}}}"), 1)).await.unwrap();
        store.record_owners(Kind::Render, &[first.clone(), second.clone()], "alice", &[]).await.unwrap();
        let resources = [format!("Render:{first}"), format!("Render:{second}")];
        let claim = store.claim_events(&resources, "alice", None);
        let deliveries = (0..4).map(|n| {
            let body = format!("{{\"round\":{round},\"n\":{n}}}");
            let store = store.clone();
            let second = second.clone();
            async move { store.receive_delivery(delivery(&second, &body, 2)).await }
        });
        let (claimed, delivered) = tokio::join!(claim, futures_util::future::join_all(deliveries));
        assert_eq!(claimed.expect("the claim goes through").len(), 1, "round {round}");
        for outcome in delivered {
            outcome.expect("a delivery goes through");
        }
    }
}

/// PostgreSQL only: a feed whose connection was cut listens again and sends what was stored meanwhile.
#[tokio::test]
async fn a_feed_cut_off_listens_again_and_misses_nothing() {
    let url = fresh_database().await;
    let store: Arc<dyn Store> = Arc::new(Postgres::connect(&url).await.unwrap());
    let mut feed = store.event_feed().await.unwrap().expect("a feed");
    store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &[]).await.unwrap();
    let mut next = async || {
        tokio::time::timeout(std::time::Duration::from_secs(30), feed.next()).await.expect("announced").unwrap()
    };
    let before = store.receive_delivery(delivery("rnd_a", "{before}", 1)).await.unwrap().unwrap();
    assert_eq!(next().await, before);

    // The listening connection is cut (a restart of PostgreSQL, a network blip); an event is stored meanwhile.
    cut_the_feed(&url).await;
    let meanwhile = store.receive_delivery(delivery("rnd_a", "{meanwhile}", 2)).await.unwrap().unwrap();
    assert_eq!(next().await, meanwhile, "read from the log once listening again");
    let after = store.receive_delivery(delivery("rnd_a", "{after}", 3)).await.unwrap().unwrap();
    assert_eq!(next().await, after);
}

/// PostgreSQL only: a feed that heard nothing yet when its connection was cut misses nothing either, however
/// many events were stored meanwhile (more than one read of the log brings).
#[tokio::test]
async fn a_feed_cut_off_before_it_heard_anything_misses_nothing_of_many() {
    let url = fresh_database().await;
    let store: Arc<dyn Store> = Arc::new(Postgres::connect(&url).await.unwrap());
    store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &[]).await.unwrap();
    let old = store.receive_delivery(delivery("rnd_a", "{old}", 1)).await.unwrap().unwrap();
    let mut feed = store.event_feed().await.unwrap().expect("a feed");
    cut_the_feed(&url).await;
    let mut stored = Vec::new();
    for n in 0..1001 {
        let body = format!("{{\"n\":{n}}}");
        stored.push(store.receive_delivery(delivery("rnd_a", &body, n + 2)).await.unwrap().unwrap());
    }
    let mut heard = Vec::new();
    while heard.last() != stored.last() {
        let event = tokio::time::timeout(std::time::Duration::from_secs(60), feed.next()).await.expect("sent on");
        heard.push(event.unwrap());
    }
    // as a stream takes them: each id once, past the last it sent (an event both announced and read back is one)
    let mut last = 0;
    heard.retain(|event| {
        let past = event.id > last;
        last = last.max(event.id);
        past
    });
    assert!(!heard.contains(&old), "what was stored before the feed listened is not its to send");
    assert_eq!(heard, stored, "every event stored while the feed was cut off, in order");
}

/// Ends the feed's listening connection from another one, as a restart of PostgreSQL or a network blip would.
async fn cut_the_feed(url: &str) {
    let (admin, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let cut = admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND query LIKE 'LISTEN%'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(cut, 1, "the feed's connection was found and cut");
}

/// PostgreSQL only: servers started together on an empty database all prepare it, and each migration is applied
/// once. They meet at a barrier, then connect at the same instant.
#[tokio::test]
async fn servers_starting_together_on_an_empty_database_all_come_up() {
    const SERVERS: usize = 16;
    let url = fresh_database().await;
    let barrier = Arc::new(tokio::sync::Barrier::new(SERVERS));
    let starts = (0..SERVERS).map(|_| {
        let (url, barrier) = (url.clone(), barrier.clone());
        tokio::spawn(async move {
            barrier.wait().await;
            Postgres::connect(&url).await.map(|_| ()).map_err(|error| format!("{error:#}"))
        })
    });
    for started in futures_util::future::join_all(starts).await {
        started.unwrap().expect("every server prepares the database");
    }
    let (admin, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let versions: Vec<i32> = admin
        .query("SELECT version FROM vstage_schema ORDER BY version", &[])
        .await
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(versions, (1..=super::postgres::MIGRATIONS.len() as i32).collect::<Vec<_>>());
}

/// A database that cannot be reached is named, with PostgreSQL's or the network's own words, never a bare
/// "db error".
#[tokio::test]
async fn a_database_that_cannot_be_reached_is_named_with_the_reason() {
    let closed = vstage_postgres_cluster::unused_loopback_port();
    let url = format!("postgres://studio:secret-password@127.0.0.1:{closed}/listings");
    let error = format!("{:#}", Postgres::connect(&url).await.expect_err("nothing listens there"));
    assert!(error.contains("\"listings\" on 127.0.0.1:") && error.contains("as \"studio\""), "{error}");
    assert!(error.to_lowercase().contains("connection refused"), "{error}");
    assert!(!error.contains("secret-password"), "{error}");

    let url = fresh_database().await;
    let (admin, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    admin.batch_execute("CREATE TABLE vstage_schema (version TEXT)").await.unwrap();
    let error = format!("{:#}", Postgres::connect(&url).await.expect_err("a schema table of another shape"));
    assert!(error.contains("ERROR: COALESCE types text and integer"), "PostgreSQL's own words: {error}");
}

fn reservation(id: &str, subject: &str, cost: Cost, at: i64) -> Reservation {
    Reservation { id: id.into(), subject: subject.into(), cost, added: Vec::new(), what: "render".into(), at }
}

/// Reports of levels reached that write nothing.
fn unreported() -> LevelReports {
    std::sync::Arc::new(|_: &LevelReached| Vec::new())
}

/// Reports of levels reached as one outbox entry each, named by the level and the photos used.
fn reported_as_entries() -> LevelReports {
    std::sync::Arc::new(|reached: &LevelReached| {
        vec![outbox_entry(&format!("{:?}-{}", reached.level, reached.used), "https://host.example/in", "", 1)]
    })
}

fn charged(cost: Cost, reached: &[LevelReached]) -> Reserved {
    Reserved::Charged { cost, reached: reached.to_vec() }
}

#[tokio::test]
async fn an_allowance_is_charged_refunded_once_and_counted_per_period() {
    on_both(|store| async move {
        let defaults = Limits { staging: Some(2), image_editing: None };
        let staging = Cost::of(UsageKind::Staging, 1);
        let charge = |id: &'static str, at| {
            let store = store.clone();
            async move {
                store.reserve(&reservation(id, "alice", staging, at), defaults, 100, unreported()).await.unwrap()
            }
        };
        let spent = |used, limit| LevelReached { kind: UsageKind::Staging, level: UsageLevel::Reached, used, limit };
        assert_eq!(charge("rsv_old", 50).await, charged(staging, &[]), "before the period: not counted in it");
        assert_eq!(charge("rsv_a", 100).await, charged(staging, &[]));
        assert_eq!(charge("rsv_b", 110).await, charged(staging, &[spent(2, 2)]));
        let refused = Reserved::Refused { kind: UsageKind::Staging, used: 2, limit: 2 };
        assert_eq!(charge("rsv_c", 120).await, refused);
        let editing = reservation("rsv_e", "alice", Cost::of(UsageKind::ImageEditing, 5), 120);
        let no_limit = store.reserve(&editing, defaults, 100, unreported()).await.unwrap();
        assert_eq!(no_limit, charged(editing.cost, &[]), "no image-editing limit, no level");

        store.refund("rsv_b", "refused by the service").await.unwrap();
        store.refund("rsv_b", "refused by the service").await.unwrap();
        assert_eq!(charge("rsv_d", 140).await, charged(staging, &[spent(2, 2)]), "the refund gave the photo back, once");
        assert_eq!(charge("rsv_f", 150).await, Reserved::Refused { kind: UsageKind::Staging, used: 2, limit: 2 });

        store.settle("rsv_a", &[("rnd_1".into(), staging), ("rnd_2".into(), staging)]).await.unwrap();
        let rows = store.ledger(Some("alice"), 100, 200).await.unwrap();
        let amounts: Vec<(&str, i64)> = rows.iter().map(|row| (row.reservation.as_str(), row.amount)).collect();
        let refund_in_its_period = ("rsv_b", -1);
        assert_eq!(amounts, [("rsv_a", 1), ("rsv_b", 1), refund_in_its_period, ("rsv_e", 5), ("rsv_d", 1)]);
        assert_eq!((rows[0].render_ids.as_str(), rows[2].what.as_str()), ("rnd_1,rnd_2", "refused by the service"));
        assert_eq!(rows[2].at, 110, "a refund counts in the period of its charge");
        store.settle("rsv_d", &[("rnd_4".into(), staging)]).await.unwrap();
        assert!(!store.refund_render("rnd_none", &[], "failed", RefundBounds::default()).await.unwrap());
        assert!(store.refund_render("rnd_4", &[], "failed", RefundBounds::default()).await.unwrap());
        assert!(!store.refund_render("rnd_4", &[], "failed", RefundBounds::default()).await.unwrap(), "once");
        assert_eq!(charge("rsv_h", 157).await, charged(staging, &[spent(2, 2)]), "rnd_4's photo given back");

        let own = SubjectAllowance { staging: Setting::Photos(3), image_editing: Setting::Photos(0) };
        store.set_allowance("alice", own).await.unwrap();
        assert_eq!(charge("rsv_g", 160).await, charged(staging, &[spent(3, 3)]), "her own allowance of 3 over the default's 2");
        let refused = Reserved::Refused { kind: UsageKind::ImageEditing, used: 5, limit: 0 };
        assert_eq!(store.reserve(&editing, defaults, 100, unreported()).await.unwrap(), refused);
        assert_eq!(store.allowances(None).await.unwrap(), [("alice".to_string(), own)]);
        assert_eq!(store.allowances(Some("alice")).await.unwrap(), [("alice".to_string(), own)]);
        assert!(store.allowances(Some("bob")).await.unwrap().is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_refund_gives_a_renders_own_share_back_in_the_period_it_was_charged_in() {
    on_both(|store| async move {
        let defaults = Limits { staging: Some(3), image_editing: None };
        let one = Cost::of(UsageKind::Staging, 1);
        let reserve = |reservation: Reservation, period_start| {
            let store = store.clone();
            async move { store.reserve(&reservation, defaults, period_start, unreported()).await.unwrap() }
        };
        reserve(reservation("rsv_bulk", "erin", Cost::of(UsageKind::Staging, 2), 100), 100).await;
        store.settle("rsv_bulk", &[("rnd_x".into(), one), ("rnd_y".into(), one)]).await.unwrap();
        assert!(
            store.refund_render("rnd_x", &[], "failed", RefundBounds::default()).await.unwrap(),
            "a bulk creation's render: its share"
        );
        assert!(!store.refund_render("rnd_x", &[], "failed", RefundBounds::default()).await.unwrap(), "once");
        let net = |rows: Vec<LedgerRow>| rows.iter().map(|row| row.amount).sum::<i64>();
        assert_eq!(net(store.ledger(Some("erin"), 100, 1000).await.unwrap()), 1, "rnd_y's share stands");
        let to_stage = [UsageKind::Staging];
        assert_eq!(reserve(adding("rsv_x2", "erin", "rnd_x", &to_stage), 100).await, charged(one, &[]), "pays again");
        assert_eq!(reserve(adding("rsv_y2", "erin", "rnd_y", &to_stage), 100).await, charged(Cost::NONE, &[]));

        // Charged before the period renewed (at 100), refunded after: it gives nothing to spend now.
        reserve(reservation("rsv_old", "erin", one, 50), 0).await;
        store.settle("rsv_old", &[("rnd_old".into(), one)]).await.unwrap();
        let before = net(store.ledger(Some("erin"), 100, 1000).await.unwrap());
        assert!(store.refund_render("rnd_old", &[], "failed", RefundBounds::default()).await.unwrap());
        assert_eq!(net(store.ledger(Some("erin"), 100, 1000).await.unwrap()), before, "this period's use unchanged");
        let old: Vec<LedgerRow> = store.ledger(Some("erin"), 0, 100).await.unwrap();
        let old = old.into_iter().filter(|row| row.reservation == "rsv_old").collect();
        assert_eq!(net(old), 0, "given back in the old period");
    })
    .await;
}

/// What `vstage usage` reads to count a bulk creation by listing: each render's share and its listing.
#[tokio::test]
async fn a_bulks_shares_and_its_renders_listings_are_read_back() {
    on_both(|store| async move {
        let defaults = Limits { staging: None, image_editing: None };
        let (one, two) = (Cost::of(UsageKind::Staging, 1), Cost::of(UsageKind::Staging, 2));
        let bulk = reservation("rsv_bulk", "erin", Cost::of(UsageKind::Staging, 3), 100);
        store.reserve(&bulk, defaults, 100, unreported()).await.unwrap();
        store.settle("rsv_bulk", &[("rnd_x".into(), one), ("rnd_y".into(), two)]).await.unwrap();
        let listed = HostReference { listing_id: Some("L-1".into()), ..HostReference::default() };
        let unlisted = HostReference { photo_id: Some("P-2".into()), ..HostReference::default() };
        store.record_references(&[("rnd_x".into(), listed), ("rnd_y".into(), unlisted)]).await.unwrap();

        let share = |render_id: &str, photos| RenderShare {
            reservation: "rsv_bulk".into(),
            kind: UsageKind::Staging,
            render_id: render_id.into(),
            photos,
        };
        let shares = store.render_shares(&["rsv_bulk".into(), "rsv_none".into()]).await.unwrap();
        assert_eq!(shares, [share("rnd_x", 1), share("rnd_y", 2)]);
        let listings = store.listings_of(&["rnd_x".into(), "rnd_y".into(), "rnd_z".into()]).await.unwrap();
        assert_eq!(listings, [("rnd_x".to_string(), "L-1".to_string())], "only renders with a listing");
    })
    .await;
}

/// A reservation of `subject`'s adding variations of `kinds` to `render_id`.
fn adding(id: &str, subject: &str, render_id: &str, kinds: &[UsageKind]) -> Reservation {
    let added = vec![AddedTo { render_id: render_id.into(), kinds: kinds.to_vec() }];
    Reservation { added, what: "variations".into(), ..reservation(id, subject, Cost::NONE, 20) }
}

#[tokio::test]
async fn a_refused_additions_charge_goes_to_the_one_it_made_free() {
    on_both(|store| async move {
        let defaults = Limits { staging: Some(10), image_editing: Some(10) };
        let reserve = |reservation: Reservation| {
            let store = store.clone();
            async move { store.reserve(&reservation, defaults, 0, unreported()).await.unwrap() }
        };
        let staging = Cost::of(UsageKind::Staging, 1);
        store.reserve(&reservation("rsv_r", "erin", staging, 10), defaults, 0, unreported()).await.unwrap();
        store.settle("rsv_r", &[("rnd_e".into(), staging)]).await.unwrap();
        let to_edit = [UsageKind::ImageEditing];
        let editing = Cost::of(UsageKind::ImageEditing, 1);
        assert_eq!(reserve(adding("rsv_a", "erin", "rnd_e", &to_edit)).await, charged(editing, &[]));
        // reserved while rsv_a's answer is awaited: free, as rsv_a stands charged for the kind
        assert_eq!(reserve(adding("rsv_b", "erin", "rnd_e", &to_edit)).await, charged(Cost::NONE, &[]));
        store.refund("rsv_a", "refused by the service").await.unwrap();
        let used = |rows: &[LedgerRow]| {
            rows.iter().filter(|row| row.kind == UsageKind::ImageEditing).map(|row| row.amount).sum::<i64>()
        };
        let rows = store.ledger(Some("erin"), 0, 100).await.unwrap();
        assert_eq!(used(&rows), 1, "rsv_b, which the service made, pays in rsv_a's place: {rows:?}");
        assert!(rows.iter().any(|row| row.reservation == "rsv_b" && row.amount == 1), "{rows:?}");
        assert_eq!(reserve(adding("rsv_c", "erin", "rnd_e", &to_edit)).await, charged(Cost::NONE, &[]), "paid for");
        // and refused in turn, it gives its charge back (to rsv_c, free because of it)
        store.refund("rsv_b", "refused by the service").await.unwrap();
        store.refund("rsv_c", "refused by the service").await.unwrap();
        assert_eq!(used(&store.ledger(Some("erin"), 0, 100).await.unwrap()), 0, "nothing made, nothing paid");
    })
    .await;
}

#[tokio::test]
async fn added_variations_pay_for_a_kind_their_render_does_not_stand_charged_for() {
    on_both(|store| async move {
        let defaults = Limits { staging: Some(10), image_editing: Some(10) };
        let (staging, editing) = (Cost::of(UsageKind::Staging, 1), Cost::of(UsageKind::ImageEditing, 1));
        let reserve = |reservation: Reservation| {
            let store = store.clone();
            async move { store.reserve(&reservation, defaults, 0, unreported()).await.unwrap() }
        };
        let make = |id: &'static str, render_id: &'static str, cost: Cost| {
            let store = store.clone();
            async move {
                store.reserve(&reservation(id, "dana", cost, 10), defaults, 0, unreported()).await.unwrap();
                store.settle(id, &[(render_id.into(), cost)]).await.unwrap();
            }
        };
        make("rsv_a", "rnd_a", staging).await;
        let (to_stage, to_edit) = ([UsageKind::Staging], [UsageKind::ImageEditing]);
        assert_eq!(
            reserve(adding("rsv_1", "dana", "rnd_a", &to_stage)).await,
            charged(Cost::NONE, &[]),
            "regenerating"
        );
        assert_eq!(reserve(adding("rsv_2", "dana", "rnd_a", &to_edit)).await, charged(editing, &[]), "a new kind");
        assert_eq!(reserve(adding("rsv_3", "dana", "rnd_a", &to_edit)).await, charged(Cost::NONE, &[]), "paid for");
        let failed = |ids: &[&str]| ids.iter().map(|id| id.to_string()).collect::<Vec<_>>();
        let all_four = failed(&["var_0", "var_1", "var_2", "var_3"]);
        let awaited = store.refund_render("rnd_a", &all_four, "failed", RefundBounds::default()).await.unwrap();
        assert!(!awaited, "an addition's answer is awaited: what it adds may yet be made");
        for (n, reservation) in ["rsv_1", "rsv_2", "rsv_3"].into_iter().enumerate() {
            store.added_variations(reservation, &[("rnd_a".into(), format!("var_{}", n + 1))]).await.unwrap();
        }
        let unseen = store
            .refund_render("rnd_a", &failed(&["var_0", "var_1"]), "failed", RefundBounds::default())
            .await
            .unwrap();
        assert!(!unseen, "var_2 and var_3 were not seen to fail");
        assert!(
            store.refund_render("rnd_a", &all_four, "failed", RefundBounds::default()).await.unwrap(),
            "its creation and rsv_2"
        );

        make("rsv_m", "rnd_m", Cost::of(UsageKind::Staging, 3)).await;
        let views = reserve(adding("rsv_4", "dana", "rnd_m", &UsageKind::ALL)).await;
        assert_eq!(views, charged(Cost::of(UsageKind::ImageEditing, 3), &[]), "every view of a multi-view render");

        make("rsv_b", "rnd_b", staging).await;
        let at_once = (0..10).map(|n| reserve(adding(&format!("rsv_b{n}"), "dana", "rnd_b", &to_edit)));
        let paid: Cost = futures_util::future::join_all(at_once).await.into_iter().fold(Cost::NONE, |sum, reserved| {
            let Reserved::Charged { cost, .. } = reserved else { panic!("refused: {reserved:?}") };
            sum.plus(cost)
        });
        assert_eq!(paid, editing, "ten at once pay once");

        make("rsv_c", "rnd_c", staging).await;
        assert!(store.refund_render("rnd_c", &[], "failed", RefundBounds::default()).await.unwrap());
        let again = reserve(adding("rsv_5", "dana", "rnd_c", &to_stage)).await;
        assert_eq!(again, charged(staging, &[]), "after its refund, what it makes pays again");

        make("rsv_d", "rnd_d", staging).await;
        reserve(adding("rsv_6", "dana", "rnd_d", &to_stage)).await;
        store.refund("rsv_6", "refused by the service").await.unwrap();
        assert!(
            store.refund_render("rnd_d", &[], "failed", RefundBounds::default()).await.unwrap(),
            "a refused addition added nothing"
        );

        let rows = store.ledger(Some("dana"), 0, 100).await.unwrap();
        let used = |kind| rows.iter().filter(|row| row.kind == kind).map(|row| row.amount).sum::<i64>();
        assert_eq!(used(UsageKind::Staging), 3 + 1 + 1, "rnd_m, rnd_b, rnd_c once again; rnd_a and rnd_d refunded");
        assert_eq!(used(UsageKind::ImageEditing), 3 + 1, "rnd_m, rnd_b; rnd_a's refunded");
    })
    .await;
}

#[tokio::test]
async fn concurrent_reservations_never_spend_more_than_the_allowance() {
    on_both(|store| async move {
        let defaults = Limits { staging: Some(7), image_editing: None };
        let tries = (0..30).map(|n| {
            let store = store.clone();
            async move {
                let reserved = reservation(&format!("rsv_{n}"), "bob", Cost::of(UsageKind::Staging, 1), 10);
                store.reserve(&reserved, defaults, 0, reported_as_entries()).await.unwrap()
            }
        });
        let outcomes = futures_util::future::join_all(tries).await;
        let charged = outcomes.iter().filter(|outcome| matches!(outcome, Reserved::Charged { .. })).count();
        assert_eq!(charged, 7);
        // 6 of 7 is the first past 80 %, 7 of 7 all of it: each reported once, whatever the order
        let mut reports: Vec<String> =
            store.deliveries(None, 100).await.unwrap().into_iter().map(|delivery| delivery.id).collect();
        reports.sort();
        assert_eq!(reports, ["Near-6", "Reached-7"]);
        let claimed = store.claim_due("https://host.example/in", 10_000, 1000, 100).await.unwrap();
        let first: Vec<&str> = claimed.iter().map(|claimed| claimed.entry.id.as_str()).collect();
        assert_eq!(first, ["Near-6"], "events about no render go one at a time, in order");
    })
    .await;
}

#[tokio::test]
async fn a_charge_that_reaches_a_level_writes_its_reports_with_it_and_a_refusal_writes_none() {
    on_both(|store| async move {
        let defaults = Limits { staging: Some(5), image_editing: None };
        let mut reached = Vec::new();
        for n in 0..6 {
            let reserved = reservation(&format!("rsv_{n}"), "carol", Cost::of(UsageKind::Staging, 1), 10);
            reached.push(store.reserve(&reserved, defaults, 0, reported_as_entries()).await.unwrap());
        }
        let level = |level, used| LevelReached { kind: UsageKind::Staging, level, used, limit: 5 };
        let one = Cost::of(UsageKind::Staging, 1);
        assert_eq!(reached[3], charged(one, &[level(UsageLevel::Near, 4)]), "4 of 5 is 80 %");
        assert_eq!(reached[4], charged(one, &[level(UsageLevel::Reached, 5)]));
        assert_eq!(reached[5], Reserved::Refused { kind: UsageKind::Staging, used: 5, limit: 5 });
        let counts = store.delivery_counts().await.unwrap();
        assert_eq!(counts.pending, 2, "one entry per level reached, none for the charges below it or the refusal");
    })
    .await;
}

fn outbox_entry(id: &str, target: &str, render_id: &str, now: i64) -> super::outbox::OutboxEntry {
    super::outbox::OutboxEntry {
        id: id.into(),
        target: target.into(),
        render_id: render_id.into(),
        kind: "render.created".into(),
        payload: format!("{{\"id\":\"{id}\"}}"),
        created_at: now,
    }
}

#[tokio::test]
async fn the_host_outbox_delivers_each_event_once_in_order_per_render() {
    use super::outbox::Attempt;
    on_both(|store| async move {
        let (a, b) = ("http://a.example/in", "http://b.example/in");
        let first = [outbox_entry("msg_1", a, "rnd_a", 1_000), outbox_entry("msg_1", b, "rnd_a", 1_000)];
        store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &first).await.unwrap();
        // again, as a retried record: nothing new
        store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &first).await.unwrap();
        // (a render's later event is of another kind: it is reported created once)
        let done =
            super::outbox::OutboxEntry { kind: "variation.done".into(), ..outbox_entry("msg_2", a, "rnd_a", 1_001) };
        let later = [done, outbox_entry("msg_3", a, "rnd_b", 1_001)];
        store.record_owners(Kind::Render, &["rnd_b".into()], "alice", &later).await.unwrap();
        assert_eq!(store.delivery_counts().await.unwrap().pending, 4);

        // the render's first event goes before its second; another render's goes alongside; each receiver apart
        assert_eq!(store.pending_targets().await.unwrap(), [a, b]);
        let claim = |target: &'static str, now: i64| {
            let store = store.clone();
            async move { store.claim_due(target, now, 60_000, 10).await.unwrap() }
        };
        let ids = |claimed: &[super::outbox::Claimed]| -> Vec<String> {
            claimed.iter().map(|c| format!("{} {}", c.entry.id, c.entry.target)).collect()
        };
        let to_a = claim(a, 2_000).await;
        assert_eq!(ids(&to_a), [format!("msg_1 {a}"), format!("msg_3 {a}")]);
        assert_eq!(to_a[0].attempts, 1);
        assert!(claim(a, 2_001).await.is_empty(), "held by the claim");
        let to_b = claim(b, 2_001).await;
        assert_eq!(ids(&to_b), [format!("msg_1 {b}")], "b's claimed while a's are held");

        // a's msg_1 is taken; b's is to be tried again later; msg_3's claim lapses (its server died)
        store.settle_delivery(to_a[0].seq, Attempt::Sent, 2_100).await.unwrap();
        let retry = Attempt::Retry { at: 100_000, why: "HTTP 503".into() };
        store.settle_delivery(to_b[0].seq, retry, 2_100).await.unwrap();
        assert!(claim(b, 62_001).await.is_empty(), "b's msg_1 waits for its time");
        let next = claim(a, 62_001).await;
        let next_ids: Vec<&str> = next.iter().map(|c| c.entry.id.as_str()).collect();
        assert_eq!(next_ids, ["msg_2", "msg_3"], "msg_2 follows msg_1 to a; msg_3 again after its lease");
        for claim in &next {
            store.settle_delivery(claim.seq, Attempt::Sent, 62_100).await.unwrap();
        }
        assert!(claim(a, 200_000).await.is_empty());
        let again = claim(b, 200_000).await;
        assert_eq!(again.len(), 1);
        assert_eq!((again[0].entry.target.as_str(), again[0].attempts), (b, 2));
        store.settle_delivery(again[0].seq, Attempt::GaveUp { why: "HTTP 500".into() }, 200_100).await.unwrap();
        assert!(store.pending_targets().await.unwrap().is_empty());

        let failed = store.deliveries(Some("failed"), 10).await.unwrap();
        assert_eq!((failed.len(), failed[0].last_error.as_str()), (1, "HTTP 500"));
        assert_eq!(store.retry_delivery("msg_1", Some(b), 300_000).await.unwrap(), 1, "to b only");
        assert_eq!(ids(&claim(b, 300_000).await), [format!("msg_1 {b}")], "due again at once");
        assert!(claim(a, 300_000).await.is_empty(), "a's msg_1 stays sent");
        assert_eq!(store.retry_delivery("msg_1", None, 300_000).await.unwrap(), 2, "both receivers of msg_1");
        assert!(claim(b, 300_001).await.is_empty(), "b's attempt under way keeps its claim: not sent twice at once");
        assert_eq!(store.retry_delivery("msg_9", None, 300_000).await.unwrap(), 0);
        assert_eq!(store.retry_delivery("msg_1", Some("http://c.example/in"), 300_000).await.unwrap(), 0);
        let counts = store.delivery_counts().await.unwrap();
        assert_eq!((counts.pending, counts.sent, counts.failed), (2, 2, 0));

        // settled long enough ago, they are forgotten; what is pending stays
        let given_up = [claim(a, 400_000).await, claim(b, 400_000).await].concat();
        for claim in &given_up {
            store.settle_delivery(claim.seq, Attempt::GaveUp { why: "HTTP 500".into() }, 400_100).await.unwrap();
        }
        store
            .record_owners(Kind::Render, &["rnd_c".into()], "alice", &[outbox_entry("msg_4", a, "rnd_c", 1)])
            .await
            .unwrap();
        assert_eq!(store.forget_settled(62_100, 400_100).await.unwrap(), 0, "none settled before");
        assert_eq!(store.forget_settled(62_101, 400_100).await.unwrap(), 2, "msg_2 and msg_3, sent at 62_100");
        assert_eq!(store.forget_settled(62_101, 400_101).await.unwrap(), 2, "msg_1 to both, given up at 400_100");
        let counts = store.delivery_counts().await.unwrap();
        assert_eq!((counts.pending, counts.sent, counts.failed), (1, 0, 0), "msg_4 still pending");
    })
    .await;
}

#[tokio::test]
async fn a_deliverys_host_webhooks_are_written_with_it_once_its_owner_is_known() {
    use super::store::ReportFor;
    on_both(|store| async move {
        let report = ReportFor(Arc::new(|subject: &str| {
            vec![outbox_entry(&format!("msg_{subject}"), "http://a.example/in", "rnd_a", 1_000)]
        }));
        let reported = |id: &str, body: &str| Delivery { reported: Some(report.clone()), ..delivery(id, body, 1_000) };
        // kept unowned (token access, no owner yet): nothing reported
        store.receive_delivery(reported("rnd_a", "{1}")).await.unwrap().unwrap();
        assert_eq!(store.delivery_counts().await.unwrap().pending, 0);
        store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &[]).await.unwrap();
        store.receive_delivery(reported("rnd_a", "{2}")).await.unwrap().unwrap();
        let pending = store.deliveries(Some("pending"), 10).await.unwrap();
        assert_eq!(pending.iter().map(|row| row.id.as_str()).collect::<Vec<_>>(), ["msg_alice"]);
        // a duplicate delivery is not stored, nor reported again
        assert!(store.receive_delivery(reported("rnd_a", "{2}")).await.unwrap().is_none());
        assert_eq!(store.delivery_counts().await.unwrap().pending, 1);
    })
    .await;
}

#[tokio::test]
async fn a_render_awaiting_its_own_references_holds_its_host_webhooks_until_they_are_recorded() {
    use super::outbox::Attempt;
    use super::store::{REFERENCES_AWAITED_MS, ReportFor};
    on_both(|store| async move {
        let target = "http://a.example/in";
        let report = |render: &'static str| {
            ReportFor(Arc::new(move |_: &str| {
                let mut entry = outbox_entry(&format!("msg_{render}"), target, render, 1_000);
                entry.payload = format!(r#"{{"type":"variation.done","data":{{"render_id":"{render}"}}}}"#);
                vec![entry]
            }))
        };
        let data_of = |claimed: &super::outbox::Claimed| {
            serde_json::from_str::<serde_json::Value>(&claimed.entry.payload).unwrap()["data"].clone()
        };
        // a bulk creation whose renders have references of their own; each render's delivery comes first
        let bulk = Creation {
            token: "crt_bulk",
            kind: Kind::Render,
            subject: "alice",
            photo: None,
            reference: None,
            references_differ: true,
        };
        store.record_creation(&bulk, 1_000).await.unwrap();
        for render in ["rnd_a", "rnd_b"] {
            let first = Delivery {
                creation: Some("crt_bulk".into()),
                reported: Some(report(render)),
                ..delivery(render, render, 1_000)
            };
            store.receive_delivery(first).await.unwrap().unwrap();
        }
        assert!(store.claim_due(target, 1_001, 60_000, 10).await.unwrap().is_empty(), "both await their references");
        assert_eq!(store.delivery_counts().await.unwrap().pending, 2);

        // the answer records rnd_a's: its webhook goes, with them
        let listing = HostReference { listing_id: Some("L-1".into()), ..HostReference::default() };
        store.record_references(&[("rnd_a".into(), listing)]).await.unwrap();
        let claimed = store.claim_due(target, 1_002, 60_000, 10).await.unwrap();
        assert_eq!(claimed.len(), 1);
        let data = data_of(&claimed[0]);
        assert_eq!((&data["render_id"], &data["listing_id"]), (&"rnd_a".into(), &"L-1".into()), "{data}");
        store.settle_delivery(claimed[0].seq, Attempt::Sent, 1_003).await.unwrap();

        // rnd_b's never come (its answer was lost): it goes without them once the wait is over
        let past = 1_000 + REFERENCES_AWAITED_MS + 1;
        let claimed = store.claim_due(target, past, 60_000, 10).await.unwrap();
        assert_eq!(claimed.len(), 1);
        let data = data_of(&claimed[0]);
        assert_eq!((&data["render_id"], &data["listing_id"]), (&"rnd_b".into(), &serde_json::Value::Null), "{data}");

        // a creation whose renders share references (or have none) holds nothing
        let single = Creation { token: "crt_one", references_differ: false, ..bulk };
        store.record_creation(&single, 2_000).await.unwrap();
        let named = Delivery {
            creation: Some("crt_one".into()),
            reported: Some(report("rnd_c")),
            ..delivery("rnd_c", "c", 2_000)
        };
        store.receive_delivery(named).await.unwrap().unwrap();
        let claimed = store.claim_due(target, 2_001, 60_000, 10).await.unwrap();
        assert_eq!(claimed.iter().map(|one| one.entry.render_id.as_str()).collect::<Vec<_>>(), ["rnd_c"]);
    })
    .await;
}

#[tokio::test]
async fn failed_renders_give_back_at_most_the_allowance_each_period() {
    use crate::allowance::AllowancePeriod;
    const DAY: i64 = 24 * 60 * 60 * 1000;
    on_both(|store| async move {
        let defaults = Limits { staging: Some(2), image_editing: None };
        let bounds = RefundBounds { defaults, period: AllowancePeriod::Day };
        let one = Cost::of(UsageKind::Staging, 1);
        let made = |id: &'static str, render: &'static str, at: i64| {
            let store = store.clone();
            async move {
                let charge = reservation(id, "mallory", one, at);
                let reserved = store.reserve(&charge, defaults, at - at % DAY, unreported()).await.unwrap();
                store.settle(id, &[(render.into(), one)]).await.unwrap();
                reserved
            }
        };
        let failed = |render: &'static str| store.refund_render(render, &[], "failed", bounds);
        // Photos the service fails, one after another: the first two come back, the third stands.
        for (id, render) in [("rsv_1", "rnd_1"), ("rsv_2", "rnd_2")] {
            assert_eq!(made(id, render, 1_000).await, charged(one, &[]));
            assert!(failed(render).await.unwrap(), "{render} given back");
        }
        made("rsv_3", "rnd_3", 1_000).await;
        assert!(!failed("rnd_3").await.unwrap(), "the day's refunds reached the allowance of 2");
        let spent = LevelReached { kind: UsageKind::Staging, level: UsageLevel::Reached, used: 2, limit: 2 };
        assert_eq!(made("rsv_4", "rnd_4", 2_000).await, charged(one, &[spent]));
        let refused = Reserved::Refused { kind: UsageKind::Staging, used: 2, limit: 2 };
        assert_eq!(made("rsv_5", "rnd_5", 3_000).await, refused, "so the account gave at most twice the allowance");

        // The next day's charges have the next day's bounds; a refusal's refund is never bounded.
        made("rsv_6", "rnd_6", DAY + 1_000).await;
        assert!(failed("rnd_6").await.unwrap());
        made("rsv_7", "rnd_7", DAY + 1_000).await;
        store.refund("rsv_7", "refused by the service").await.unwrap();
        let rows = store.ledger(Some("mallory"), DAY, 2 * DAY).await.unwrap();
        assert_eq!(rows.iter().map(|row| row.amount).sum::<i64>(), 0, "{rows:?}");

        // Without a limit of the kind, nothing bounds them.
        let unlimited = SubjectAllowance { staging: Setting::Unlimited, image_editing: Setting::Default };
        store.set_allowance("mallory", unlimited).await.unwrap();
        made("rsv_8", "rnd_8", 4_000).await;
        assert!(failed("rnd_8").await.unwrap(), "unlimited: the third refund of the day too");
    })
    .await;
}

#[tokio::test]
async fn a_claimed_event_stays_in_the_log_as_long_as_those_before_it() {
    on_both(|store| async move {
        // waiting for its owner since 1_000, while an owned one arrives at 2_000
        store.receive_delivery(delivery("rnd_w", "{waiting}", 1_000)).await.unwrap().unwrap();
        store.record_owners(Kind::Render, &["rnd_a".into(), "rnd_w".into()], "alice", &[]).await.unwrap();
        let owned = store.receive_delivery(delivery("rnd_a", "{owned}", 2_000)).await.unwrap().unwrap();
        let claimed = store.claim_events(&["Render:rnd_w".into()], "alice", None).await.unwrap();
        assert_eq!(claimed.len(), 1);
        assert!(claimed[0].id > owned.id, "after every id given so far");
        // The window passes the waiting event's arrival, not the owned one's: what it drops is below what it keeps.
        let later = Delivery { events_since: 1_500, ..delivery("rnd_a", "{later}", 3_000) };
        store.receive_delivery(later).await.unwrap().unwrap();
        let resumed = store.events_since("alice", owned.id, 10).await.unwrap();
        assert!(resumed.iter().any(|event| event.id == claimed[0].id), "a resume past the owned one gets it");
        assert!(store.event_log_bounds().await.unwrap().dropped_through <= owned.id);
    })
    .await;
}

#[tokio::test]
async fn a_charge_handed_on_over_two_renders_is_given_back_once_for_each() {
    on_both(|store| async move {
        let defaults = Limits { staging: Some(10), image_editing: Some(10) };
        let staging = Cost::of(UsageKind::Staging, 1);
        for (id, render_id) in [("rsv_x", "rnd_x"), ("rsv_y", "rnd_y")] {
            store.reserve(&reservation(id, "finn", staging, 10), defaults, 0, unreported()).await.unwrap();
            store.settle(id, &[(render_id.into(), staging)]).await.unwrap();
        }
        // one bulk addition of edits to both renders, and a second reserved free while the first stands charged
        let to_both = |id: &str| {
            let added = ["rnd_x", "rnd_y"]
                .map(|render_id| AddedTo { render_id: render_id.into(), kinds: vec![UsageKind::ImageEditing] });
            Reservation { added: added.to_vec(), what: "variations".into(), ..reservation(id, "finn", Cost::NONE, 20) }
        };
        let reserved = store.reserve(&to_both("rsv_a"), defaults, 0, unreported()).await.unwrap();
        assert_eq!(reserved, charged(Cost::of(UsageKind::ImageEditing, 2), &[]));
        let reserved = store.reserve(&to_both("rsv_h"), defaults, 0, unreported()).await.unwrap();
        assert_eq!(reserved, charged(Cost::NONE, &[]));
        store
            .added_variations("rsv_h", &[("rnd_x".into(), "var_hx".into()), ("rnd_y".into(), "var_hy".into())])
            .await
            .unwrap();
        store.refund("rsv_a", "refused by the service").await.unwrap();
        let used = |kind: UsageKind| {
            let store = store.clone();
            async move {
                let rows = store.ledger(Some("finn"), 0, 100).await.unwrap();
                rows.iter().filter(|row| row.kind == kind).map(|row| row.amount).sum::<i64>()
            }
        };
        assert_eq!(used(UsageKind::ImageEditing).await, 2, "rsv_h, made, pays for both renders");
        // and refused in turn, it hands both shares on to the one it made free
        let reserved = store.reserve(&to_both("rsv_c"), defaults, 0, unreported()).await.unwrap();
        assert_eq!(reserved, charged(Cost::NONE, &[]));
        store
            .added_variations("rsv_c", &[("rnd_x".into(), "var_cx".into()), ("rnd_y".into(), "var_cy".into())])
            .await
            .unwrap();
        store.refund("rsv_h", "refused by the service").await.unwrap();
        assert_eq!(
            used(UsageKind::ImageEditing).await,
            2,
            "rsv_c pays for both: {:?}",
            store.ledger(None, 0, 100).await
        );
        // Both renders fail whole: each share is given back once, never more than was paid; and the one that has
        // not failed yet still stands charged for its edits meanwhile.
        let failed = |render_id: &str, more: &[&str]| {
            let mut failed = vec![format!("var_{render_id}"), format!("var_c{}", &render_id[4..])];
            failed.extend(more.iter().map(|id| id.to_string()));
            failed
        };
        store.refund_render("rnd_x", &failed("rnd_x", &[]), "failed", RefundBounds::default()).await.unwrap();
        assert_eq!(used(UsageKind::ImageEditing).await, 1);
        let edit_y = adding("rsv_d", "finn", "rnd_y", &[UsageKind::ImageEditing]);
        let reserved = store.reserve(&edit_y, defaults, 0, unreported()).await.unwrap();
        assert_eq!(reserved, charged(Cost::NONE, &[]), "rnd_y's edits are still paid for");
        store.added_variations("rsv_d", &[("rnd_y".into(), "var_dy".into())]).await.unwrap();
        store.refund_render("rnd_y", &failed("rnd_y", &["var_dy"]), "failed", RefundBounds::default()).await.unwrap();
        assert_eq!(used(UsageKind::ImageEditing).await, 0, "{:?}", store.ledger(Some("finn"), 0, 100).await);
        assert_eq!(used(UsageKind::Staging).await, 0);
    })
    .await;
}

#[tokio::test]
async fn a_render_adopted_from_an_early_delivery_is_reported_created_once() {
    use super::store::ReportFor;
    on_both(|store| async move {
        let target = "https://host.example/in";
        let created =
            |id: &'static str| ReportFor(Arc::new(move |_: &str| vec![outbox_entry(id, target, "rnd_a", 1_000)]));
        let creation = Creation {
            token: "crt_a",
            kind: Kind::Render,
            subject: "alice",
            photo: None,
            reference: None,
            references_differ: false,
        };
        store.record_creation(&creation, 1_000).await.unwrap();
        // the service's delivery comes before the creation's answer: the render is adopted, and reported created
        let early = Delivery {
            creation: Some("crt_a".into()),
            created: Some(created("msg_adopted")),
            ..delivery("rnd_a", "a", 1_000)
        };
        assert_eq!(store.receive_delivery(early).await.unwrap().unwrap().subject, "alice");
        // the answer comes after all and reports it again; a later delivery of the owned render adopts nothing
        let answered = [outbox_entry("msg_answered", target, "rnd_a", 1_001)];
        store.record_owners(Kind::Render, &["rnd_a".into()], "alice", &answered).await.unwrap();
        let later = Delivery {
            creation: Some("crt_a".into()),
            created: Some(created("msg_later")),
            ..delivery("rnd_a", "b", 1_002)
        };
        store.receive_delivery(later).await.unwrap().unwrap();
        let claimed = store.claim_due(target, 2_000, 60_000, 10).await.unwrap();
        let ids: Vec<&str> = claimed.iter().map(|claimed| claimed.entry.id.as_str()).collect();
        assert_eq!(ids, ["msg_adopted"], "reported created first by the delivery that adopted it");
        store.settle_delivery(claimed[0].seq, super::outbox::Attempt::Sent, 2_001).await.unwrap();
        assert!(store.claim_due(target, 2_002, 60_000, 10).await.unwrap().is_empty(), "and once");
    })
    .await;
}
