//! The service's answers with the kept addresses in place of its own, and the finished variations not kept yet
//! copied in the background.

use super::*;

impl KeptResults {
    /// The service's JSON answer about renders or variations (`body`), with the kept addresses in place of the
    /// service's; finished variations not kept yet are copied for `subject` in the background. Anything that is
    /// not such an answer comes back as it was.
    pub async fn in_answer(self: &Arc<Self>, body: Bytes, subject: &str) -> Bytes {
        let Ok(answer) = serde_json::from_slice::<Value>(&body) else { return body };
        self.in_written(answer, body, subject).await
    }

    /// `answer`, written as `body`, with the kept addresses in place; `body` when nothing changes.
    pub async fn in_written(self: &Arc<Self>, mut answer: Value, body: Bytes, subject: &str) -> Bytes {
        let mut finished = Vec::new();
        finished_variations(&answer, &mut finished);
        if finished.is_empty() {
            return body;
        }
        let renders: Vec<String> =
            finished.iter().map(|(render, _)| render.clone()).collect::<HashSet<_>>().into_iter().collect();
        let kept = match self.kept_files(renders).await {
            Ok(kept) => kept,
            Err(error) => {
                tracing::warn!(%error, "kept results could not be looked up");
                return body;
            }
        };
        let mut unkept = Vec::new();
        replace_addresses(&mut answer, &kept, &|file| self.address(file), &mut unkept);
        for Unkept { render_id, variation_id, kind, result } in unkept {
            self.keep_later(subject, &render_id, &variation_id, kind, &result);
        }
        serde_json::to_vec(&answer).map(Bytes::from).unwrap_or(body)
    }

    /// For each variation of `renders` that has kept files (or had, and was removed: an empty map), its files
    /// by `(image index, role)`.
    async fn kept_files(&self, renders: Vec<String>) -> Result<Kept, ServerError> {
        let mut kept = Kept::new();
        for file in self.store.kept_files(&renders).await? {
            let files = kept.entry((file.render_id.clone(), file.variation_id.clone())).or_default();
            if !file.removed {
                let address = format!("{}/{}/{}", file.render_id, file.variation_id, file.file);
                files.insert((file.image_index as usize, file.role), address);
            }
        }
        Ok(kept)
    }
}

/// Whether a JSON answer has a finished variation anywhere: an object with `status` `done`, a `result`, a
/// `render_id` and an `id`.
pub fn has_finished_variations_in(answer: &Value) -> bool {
    let mut finished = Vec::new();
    finished_variations(answer, &mut finished);
    !finished.is_empty()
}

/// Every finished variation in a JSON answer (a variation, a render with its variations, a page of renders):
/// objects with `id`, `render_id`, `status` `done` and a `result`.
fn finished_variations(value: &Value, found: &mut Vec<(String, String)>) {
    match value {
        Value::Object(object) => {
            if let Some((render, variation)) = finished(object) {
                found.push((render.to_string(), variation.to_string()));
            }
            object.values().for_each(|inner| finished_variations(inner, found));
        }
        Value::Array(items) => items.iter().for_each(|inner| finished_variations(inner, found)),
        _ => {}
    }
}

fn finished(object: &serde_json::Map<String, Value>) -> Option<(&str, &str)> {
    let done = object.get("status").and_then(Value::as_str) == Some("done") && object.contains_key("result");
    done.then_some(())?;
    Some((object.get("render_id")?.as_str()?, object.get("id")?.as_str()?))
}

/// A finished variation with nothing kept yet, to be copied.
struct Unkept {
    render_id: String,
    variation_id: String,
    kind: Option<VariationType>,
    result: VariationResult,
}

/// Puts the kept addresses in place in every finished variation of `value`; those with nothing kept (and not
/// removed) are listed in `unkept` with their result, to be copied.
fn replace_addresses(value: &mut Value, kept: &Kept, address: &dyn Fn(&str) -> String, unkept: &mut Vec<Unkept>) {
    match value {
        Value::Object(object) => {
            if let Some((render, variation)) = finished(object).map(|(r, v)| (r.to_string(), v.to_string())) {
                match kept.get(&(render.clone(), variation.clone())) {
                    Some(files) => {
                        if let Some(result) = object.get_mut("result") {
                            replace_in_result(result, files, address);
                        }
                    }
                    None => {
                        if let Some(result) = object.get("result").and_then(|r| serde_json::from_value(r.clone()).ok())
                        {
                            let kind = object.get("type").and_then(|t| serde_json::from_value(t.clone()).ok());
                            unkept.push(Unkept { render_id: render, variation_id: variation, kind, result });
                        }
                    }
                }
            }
            object.values_mut().for_each(|inner| replace_addresses(inner, kept, address, unkept));
        }
        Value::Array(items) => items.iter_mut().for_each(|inner| replace_addresses(inner, kept, address, unkept)),
        _ => {}
    }
}

/// A result (one image object, or a list of them) with its kept addresses.
fn replace_in_result(result: &mut Value, files: &HashMap<(usize, String), String>, address: &dyn Fn(&str) -> String) {
    let images: Vec<&mut Value> = match result {
        Value::Array(images) => images.iter_mut().collect(),
        image => vec![image],
    };
    for (index, image) in images.into_iter().enumerate() {
        let Some(image) = image.as_object_mut() else { continue };
        for role in ROLES {
            if let Some(file) = files.get(&(index, role.to_string()))
                && image.contains_key(role)
            {
                image.insert(role.to_string(), Value::String(address(file)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::copying::sources;
    use super::*;

    #[test]
    fn finished_variations_anywhere_in_an_answer_get_their_kept_addresses() {
        let mut answer = json!({"items": [{"id": "r1", "variations": {"items": [
            {"id": "v1", "render_id": "r1", "status": "done",
             "result": {"url": "https://cdn.example/a.jpg", "thumbnail_url": "https://cdn.example/a_t.png"}},
            {"id": "v2", "render_id": "r1", "status": "done", "result": [{"url": "https://cdn.example/b.jpg"}]},
            {"id": "v3", "render_id": "r1", "status": "processing"},
        ]}}]});
        let mut found = Vec::new();
        finished_variations(&answer, &mut found);
        assert_eq!(found, [("r1".to_string(), "v1".to_string()), ("r1".to_string(), "v2".to_string())]);

        let mut kept = Kept::new();
        kept.insert(
            ("r1".into(), "v1".into()),
            HashMap::from([((0, "url".to_string()), "r1/v1/0-url.jpg".to_string())]),
        );
        let mut unkept = Vec::new();
        let address = |file: &str| format!("https://me.example/api/results/{file}?sig=s");
        replace_addresses(&mut answer, &kept, &address, &mut unkept);
        let v1 = &answer["items"][0]["variations"]["items"][0]["result"];
        assert_eq!(v1["url"], "https://me.example/api/results/r1/v1/0-url.jpg?sig=s");
        assert_eq!(v1["thumbnail_url"], "https://cdn.example/a_t.png", "what was not kept stays");
        assert_eq!(unkept.len(), 1, "v2 is to be copied");
        assert_eq!(sources(&unkept[0].result)[0].file(), "0-url.jpg");
    }
}
