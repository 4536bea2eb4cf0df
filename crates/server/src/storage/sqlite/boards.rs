//! `BoardRecords` (`store/boards.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::BoardRecords;

#[async_trait]
impl BoardRecords for Sqlite {
    async fn board(&self, subject: &str) -> Result<Board, ServerError> {
        let subject = subject.to_string();
        self.run(move |db| read_board(db, &subject)).await
    }

    async fn board_add(&self, subject: &str, renders: &[BoardRender], max: usize) -> Result<Board, ServerError> {
        let (subject, renders) = (subject.to_string(), renders.to_vec());
        self.run(move |db| {
            // Immediate: the board counted stays so until the commit, whichever connection writes next.
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let (count, last): (i64, Option<i64>) = tx.query_row(
                "SELECT COUNT(*), MAX(position) FROM board_renders WHERE subject = ?1",
                params![subject],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )?;
            let mut position = last.unwrap_or(0);
            let mut added = 0usize;
            for render in &renders {
                position += 1;
                added += tx.execute(
                    "INSERT OR IGNORE INTO board_renders (subject, render_id, label, position) VALUES (?1, ?2, ?3, ?4)",
                    params![subject, render.render_id, render.label, position],
                )?;
            }
            if count.max(0) as usize + added > max {
                return Err(board_full(max));
            }
            tx.commit()?;
            read_board(db, &subject)
        })
        .await
    }

    async fn board_remove(&self, subject: &str, render_id: &str) -> Result<Board, ServerError> {
        let (subject, render_id) = (subject.to_string(), render_id.to_string());
        self.run(move |db| {
            db.execute("DELETE FROM board_renders WHERE subject = ?1 AND render_id = ?2", params![subject, render_id])?;
            read_board(db, &subject)
        })
        .await
    }

    async fn board_clear(&self, subject: &str) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.run(move |db| {
            db.execute("DELETE FROM board_renders WHERE subject = ?1", params![subject])?;
            Ok(())
        })
        .await
    }
}
