//! Each subject's listing board: the renders an agent stages together, in the order added, with the photo's name
//! as the agent knows it (for the rows and the board's ZIP). Removing a render from the board keeps the render.

use rusqlite::params;
use vstage_api::board::{Board, BoardRender, MAX_BOARD_RENDERS};

use crate::error::ServerError;
use crate::storage::db::Db;

/// The longest label kept; a longer one is cut (it is a file name shown in a row).
const MAX_LABEL_CHARS: usize = 120;

#[derive(Debug, Clone)]
pub struct Boards {
    db: Db,
}

impl Boards {
    pub fn new(db: Db) -> Self {
        Boards { db }
    }

    /// `subject`'s board.
    pub async fn board(&self, subject: &str) -> Result<Board, ServerError> {
        let subject = subject.to_string();
        self.db.run(move |db| read(db, &subject)).await
    }

    /// Adds `renders` at the end of `subject`'s board, in their order; one already there keeps its place and label.
    /// Refused whole when the board would hold more than `MAX_BOARD_RENDERS`.
    pub async fn add(&self, subject: &str, renders: Vec<BoardRender>) -> Result<Board, ServerError> {
        let subject = subject.to_string();
        self.db
            .run(move |db| {
                let tx = db.transaction()?;
                let (count, last): (i64, Option<i64>) = tx.query_row(
                    "SELECT COUNT(*), MAX(position) FROM board_renders WHERE subject = ?1",
                    params![subject],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )?;
                let mut position = last.unwrap_or(0);
                let mut added = 0usize;
                for render in &renders {
                    position += 1;
                    let label: String = render.label.trim().chars().take(MAX_LABEL_CHARS).collect();
                    added += tx.execute(
                        "INSERT OR IGNORE INTO board_renders (subject, render_id, label, position)
                         VALUES (?1, ?2, ?3, ?4)",
                        params![subject, render.render_id, label, position],
                    )?;
                }
                if count.max(0) as usize + added > MAX_BOARD_RENDERS {
                    return Err(ServerError::Conflict(format!(
                        "A board holds at most {MAX_BOARD_RENDERS} renders; take some off or start a new board."
                    )));
                }
                tx.commit()?;
                read(db, &subject)
            })
            .await
    }

    /// Takes `render_id` off `subject`'s board (nothing happens when it is not there).
    pub async fn remove(&self, subject: &str, render_id: String) -> Result<Board, ServerError> {
        let subject = subject.to_string();
        self.db
            .run(move |db| {
                db.execute(
                    "DELETE FROM board_renders WHERE subject = ?1 AND render_id = ?2",
                    params![subject, render_id],
                )?;
                read(db, &subject)
            })
            .await
    }

    /// Empties `subject`'s board.
    pub async fn clear(&self, subject: &str) -> Result<Board, ServerError> {
        let subject = subject.to_string();
        self.db
            .run(move |db| {
                db.execute("DELETE FROM board_renders WHERE subject = ?1", params![subject])?;
                Ok(Board::default())
            })
            .await
    }
}

fn read(db: &rusqlite::Connection, subject: &str) -> Result<Board, ServerError> {
    let renders = db
        .prepare_cached("SELECT render_id, label FROM board_renders WHERE subject = ?1 ORDER BY position")?
        .query_map(params![subject], |row| Ok(BoardRender { render_id: row.get(0)?, label: row.get(1)? }))?
        .collect::<Result<_, _>>()?;
    Ok(Board { renders })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(id: &str, label: &str) -> BoardRender {
        BoardRender { render_id: id.into(), label: label.into() }
    }

    fn ids(board: &Board) -> Vec<&str> {
        board.renders.iter().map(|r| r.render_id.as_str()).collect()
    }

    #[tokio::test]
    async fn a_board_keeps_its_order_per_subject() {
        let dir = tempfile::tempdir().unwrap();
        let boards = Boards::new(Db::open(dir.path()).unwrap());
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
    }

    #[tokio::test]
    async fn a_board_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let boards = Boards::new(Db::open(dir.path()).unwrap());
        let many: Vec<_> = (0..MAX_BOARD_RENDERS).map(|n| render(&format!("r{n}"), "")).collect();
        boards.add("alice", many).await.unwrap();
        let refused = boards.add("alice", vec![render("one-more", "")]).await.unwrap_err();
        assert!(refused.to_string().contains("at most 200"), "{refused}");
        assert_eq!(boards.board("alice").await.unwrap().renders.len(), MAX_BOARD_RENDERS, "nothing was added");
        // adding one already there is no growth
        boards.add("alice", vec![render("r0", "")]).await.unwrap();
    }
}
