//! `BoardRecords` (`store/boards.rs`) on PostgreSQL: its SQL.

use super::*;
use crate::storage::store::BoardRecords;

#[async_trait]
impl BoardRecords for Postgres {
    async fn board(&self, subject: &str) -> Result<Board, ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move { read_board(&pool.get().await?, &subject).await }).await
    }

    async fn board_add(&self, subject: &str, renders: &[BoardRender], max: usize) -> Result<Board, ServerError> {
        let (subject, renders) = (subject.to_string(), renders.to_vec());
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // One change to a subject's board at a time, whichever server makes it.
            lock(&tx, "board", &subject).await?;
            let row = tx
                .query_one("SELECT COUNT(*), MAX(position) FROM board_renders WHERE subject = $1", &[&subject])
                .await?;
            let (count, last): (i64, Option<i64>) = (row.get(0), row.get(1));
            let mut position = last.unwrap_or(0);
            let mut added = 0u64;
            for render in &renders {
                position += 1;
                added += tx
                    .execute(
                        "INSERT INTO board_renders (subject, render_id, label, position) VALUES ($1, $2, $3, $4)
                         ON CONFLICT (subject, render_id) DO NOTHING",
                        &[&subject, &render.render_id, &render.label, &position],
                    )
                    .await?;
            }
            if count.max(0) as usize + added as usize > max {
                return Err(board_full(max));
            }
            let board = read_board(&tx, &subject).await?;
            tx.commit().await?;
            Ok(board)
        })
        .await
    }

    async fn board_remove(&self, subject: &str, render_id: &str) -> Result<Board, ServerError> {
        let (subject, render_id) = (subject.to_string(), render_id.to_string());
        self.run(move |pool| async move {
            let client = pool.get().await?;
            client
                .execute("DELETE FROM board_renders WHERE subject = $1 AND render_id = $2", &[&subject, &render_id])
                .await?;
            read_board(&client, &subject).await
        })
        .await
    }

    async fn board_clear(&self, subject: &str) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move {
            pool.get().await?.execute("DELETE FROM board_renders WHERE subject = $1", &[&subject]).await?;
            Ok(())
        })
        .await
    }
}
